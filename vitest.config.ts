import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const contractSrc = fileURLToPath(new URL('./contract/src/index.ts', import.meta.url));
const alias = { '@ctf/contract': contractSrc };

/** One runner for every workspace: `npm test` runs them all. */
export default defineConfig({
  test: {
    // Two workers for the contract, server and web files even on a 2-core machine: a server test
    // spends most of its time waiting for PostgreSQL (creating, filling and dropping its
    // databases), so a second file runs in that time (the server files: 647 s with one worker using
    // 250 s of CPU; 291 s with two and migrated template databases). The e2e files still run one at a time, after the others
    // (fileParallelism: false gives them a group of their own with one worker).
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: { name: 'contract', include: ['contract/src/**/*.test.ts'], environment: 'node' },
      },
      {
        resolve: { alias },
        test: {
          name: 'server',
          include: [
            'server/src/**/*.test.ts',
            'server/test/**/*.test.ts',
            'bench/**/*.test.ts',
            // Checks of the repository itself: the release's version and licence, and no citation of a file
            // outside it.
            'scripts/**/*.test.ts',
          ],
          // Names the run's template databases and removes them when the run ends.
          globalSetup: ['server/test/global-setup.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      './web/vite.config.ts',
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          // A real browser and server on a busy 2-core machine: give each poll time (it still
          // returns as soon as the condition holds).
          expect: { poll: { timeout: 10_000, interval: 50 } },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // One worker runs every e2e file in turn, importing playwright-core and the support code
          // once instead of starting a new process per file (about 5 s each on this machine).
          // Each file still starts its own server and browser and stops them after its tests.
          isolate: false,
          // Its own group (after the others), as fileParallelism: false with isolation gave it.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
