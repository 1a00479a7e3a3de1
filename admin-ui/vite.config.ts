import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

const api = process.env.API_ORIGIN ?? 'http://localhost:3000';

export default defineConfig({
  // .gz and .br beside each built file: the API serves them as they are (preCompressed), so a page
  // load costs no compression CPU and the browser fetches about a quarter of the bytes.
  plugins: [react(), compression({ algorithms: ['gzip', 'brotliCompress'], threshold: 1024, logLevel: 'silent' })],
  resolve: {
    // The shared contract is consumed from source, never from a built dist.
    alias: [
      { find: /^@crisis\/forms$/, replacement: fileURLToPath(new URL('../forms/src/index.ts', import.meta.url)) },
      // The subpath entries of forms/package.json "exports" (rules, cases, placement, enums, errors).
      { find: /^@crisis\/forms\/(rules|enums|errors)$/, replacement: fileURLToPath(new URL('../forms/src/$1.ts', import.meta.url)) },
      { find: /^@crisis\/forms\/(cases|placement)$/, replacement: fileURLToPath(new URL('../forms/src/$1/index.ts', import.meta.url)) },
    ],
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: api, changeOrigin: false },
      '/identity': { target: api, changeOrigin: false },
      '/socket.io': { target: api, ws: true, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      // The app, and the page a silent sign-in's hidden iframe lands on (no inline script in either).
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        silentRenew: fileURLToPath(new URL('./silent-renew.html', import.meta.url)),
      },
      output: {
        // Long-lived vendor chunks for what every page uses; the rest (the questionnaire renderer
        // and its validator, phone metadata, CSV…) goes with the pages that import it (lazyPage).
        manualChunks(id) {
          if (!id.includes('node_modules')) return undefined;
          // Small on its own: all the silent sign-in page loads.
          if (/node_modules\/(oidc-client-ts|jwt-decode)\//.test(id)) return 'vendor-oidc';
          // With the helpers that MUI and react-admin both import: left to Rollup, such a module went into
          // one of the two chunks and made them import each other (a blank page: "… of undefined").
          if (/node_modules\/(react|react-dom|scheduler|react-router|react-router-dom|react-is|prop-types|hoist-non-react-statics|@babel\/runtime|clsx|use-sync-external-store)\//.test(id))
            return 'vendor-react';
          if (/node_modules\/(@mui|@emotion)\//.test(id)) return 'vendor-mui';
          if (/node_modules\/(react-admin|ra-[a-z-]+|@tanstack|react-hook-form)\//.test(id)) return 'vendor-react-admin';
          return undefined;
        },
      },
    },
  },
});
