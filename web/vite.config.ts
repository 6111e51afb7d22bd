import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The contract's web entry: endpoints' methods and paths, rules and texts, without zod (see the file).
const contractClient = fileURLToPath(new URL('../contract/src/client.ts', import.meta.url));
/** Libraries that only some lazy pages use: uPlot (the leaderboard's graph), DOMPurify (descriptions). */
const LAZY_ONLY_LIBRARIES = /[\\/]node_modules[\\/](uplot|dompurify)[\\/]/;

/**
 * The server's renderer of the first views (`vite build --ssr src/entry-server.tsx`): one
 * folder outside the served dist/, every package bundled in, so the server loads it with nothing
 * else installed (server/src/modules/first-view).
 */
const SERVER_RENDERER_BUILD = {
  outDir: 'dist-ssr',
  emptyOutDir: true,
  sourcemap: false,
  copyPublicDir: false,
} as const;

export default defineConfig(({ isSsrBuild }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: {
    alias: [{ find: '@ctf/contract', replacement: contractClient }],
  },
  ssr: { noExternal: true },
  // The server's renderer bundles React: its production build, whatever NODE_ENV the server runs
  // with (`npm start` leaves it unset, and React's development build renders several times slower).
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  build: isSsrBuild
    ? SERVER_RENDERER_BUILD
    : {
        outDir: 'dist',
        emptyOutDir: true,
        sourcemap: false,
        // Read by scripts/route-pages.mjs (each page's HTML preloads its own code), which then removes it.
        manifest: true,
        chunkSizeWarningLimit: 600,
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                {
                  // Every module that two chunks or more share goes in one chunk. The site is served
                  // over HTTP/1.1 (six connections): a page whose code came in a dozen small shared
                  // chunks waited for them in rounds, one 150 ms round trip each on a phone. Now the
                  // first page loads three files, and each lazy page one more. The chart library and
                  // the HTML sanitiser stay apart, loaded only with the pages that use them.
                  name: 'shared',
                  minShareCount: 2,
                  test: (id: string) => !LAZY_ONLY_LIBRARIES.test(id),
                },
              ],
            },
          },
        },
      },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./src/test-setup.ts'],
    // Component tests wait for conditions; a busy 2-core machine (CI runs the whole suite) can take
    // longer than vitest's 5 s default to render a few hundred rows, so a test only fails on a hang.
    testTimeout: 30_000,
  },
}));
