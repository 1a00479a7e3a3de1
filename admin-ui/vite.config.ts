import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = process.env.API_ORIGIN ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
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
        // Long-lived vendor chunks: the app's own code changes far more often.
        manualChunks(id) {
          if (!id.includes('node_modules')) return undefined;
          // Small on its own: all the silent sign-in page loads.
          if (/node_modules\/(oidc-client-ts|jwt-decode)\//.test(id)) return 'vendor-oidc';
          if (/node_modules\/(@mui|@emotion)\//.test(id)) return 'vendor-mui';
          // Its own chunk: @rjsf/mui imports MUI, and MUI imports from 'vendor'; inside 'vendor' that made a
          // cycle between chunks (a blank page: "Cannot access … before initialization").
          if (/node_modules\/@rjsf\//.test(id)) return 'vendor-rjsf';
          if (/node_modules\/(react-admin|ra-[a-z-]+|@tanstack|react-hook-form)\//.test(id)) return 'vendor-react-admin';
          return 'vendor';
        },
      },
    },
  },
});
