import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

const api = process.env.API_ORIGIN ?? 'http://localhost:3000';
const formsSource = fileURLToPath(new URL('../forms/src/', import.meta.url));

export default defineConfig({
  // .gz and .br beside each built file: the API serves them as they are (preCompressed), so a page
  // load costs no compression CPU and the browser fetches about a quarter of the bytes.
  plugins: [
    react(),
    compression({ algorithms: ['gzip', 'brotliCompress'], threshold: 1024, logLevel: 'silent' }),
    {
      // node-polyglot (react-admin's translations) gets the native Object.entries instead of the
      // `object.entries` polyfill package, whose machinery (~6 KB gzip) was in the entry chunk: see
      // src/shims/objectEntries.ts. Build only: the dev server's pre-bundling keeps the package.
      name: 'native-object-entries',
      apply: 'build',
      enforce: 'pre',
      resolveId: (source) => (source === 'object.entries' ? fileURLToPath(new URL('./src/shims/objectEntries.ts', import.meta.url)) : null),
    },
  ],
  resolve: {
    // The shared contract is consumed from source, never from a built dist.
    alias: [
      { find: /^@crisis\/forms$/, replacement: fileURLToPath(new URL('../forms/src/index.ts', import.meta.url)) },
      // The subpath entries of forms/package.json "exports" (rules, cases, placement, enums, errors).
      { find: /^@crisis\/forms\/(rules|enums|errors|core|validators)$/, replacement: fileURLToPath(new URL('../forms/src/$1.ts', import.meta.url)) },
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
      treeshake: {
        // @crisis/forms comes from source (the alias above), so nothing reads a "sideEffects" of its
        // package.json: say it here. Its modules only define constants and functions (none registers
        // or changes anything when imported), yet Rollup could not prove it of top-level calls like
        // objectSchema(…), so such a module reached through core.ts's re-exports stayed in the entry
        // chunk whole, with everything of it any page uses (the schemas: ~9 KB gzip the dashboard
        // never runs). Now it goes where its exports are used.
        // Everything else keeps the default (its package.json's "sideEffects", else side effects).
        moduleSideEffects: (id) => !id.startsWith(formsSource),
      },
      // The app, and the page a silent sign-in's hidden iframe lands on (no inline script in either).
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        silentRenew: fileURLToPath(new URL('./silent-renew.html', import.meta.url)),
      },
      output: {
        // Long-lived vendor chunks for React and the sign-in client, which every page loads whole.
        // MUI and react-admin are left to Rollup: what the first page needs goes with the entry, each
        // component only some pages use goes with them (in one vendor chunk, every page loaded all of
        // MUI and react-admin: 265 KB gzip, 45 of them for components the dashboard does not show).
        manualChunks(id) {
          if (!id.includes('node_modules')) return undefined;
          // Small on its own: all the silent sign-in page loads.
          if (/node_modules\/(oidc-client-ts|jwt-decode)\//.test(id)) return 'vendor-oidc';
          // With the helpers that MUI and react-admin both import: left to Rollup, such a module went into
          // one of the two chunks and made them import each other (a blank page: "… of undefined").
          if (/node_modules\/(react|react-dom|scheduler|react-router|react-router-dom|react-is|prop-types|hoist-non-react-statics|@babel\/runtime|clsx|use-sync-external-store)\//.test(id))
            return 'vendor-react';
          // react-admin's core whole: its modules import each other through their index, and split
          // between the entry and the pages they made chunks import each other (run out of order).
          if (/node_modules\/ra-core\//.test(id)) return 'vendor-ra-core';
          return undefined;
        },
      },
    },
  },
});
