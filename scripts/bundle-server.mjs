#!/usr/bin/env node
/**
 * Bundles the compiled server (server/dist/main.js, from `tsc -b`) and the packages it imports
 * into one file, server/dist/server.js, which `npm start` runs. Node resolves, reads and compiles
 * every module of an unbundled start separately: several hundred files of Fastify, zod, Kysely
 * and their dependencies, which was over half of the time to ready with a large event
 * (bench/RESULTS.md). One file skips every resolution and file read.
 *
 * Left outside and imported at run time: the native SQLite binding, and what only some sites
 * load, lazily (pg and ioredis for scale-out, dockerode for challenge instances).
 *
 * Usage: node scripts/bundle-server.mjs (run by the server's build script).
 */
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXTERNAL_PACKAGES } from './server-externals.mjs';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../server');

await build({
  entryPoints: [path.join(serverDir, 'dist/main.js')],
  outfile: path.join(serverDir, 'dist/server.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  external: EXTERNAL_PACKAGES,
  // CommonJS packages inside an ES module bundle still call require() for Node's own modules.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  // Smaller text to read and compile at start-up; names are kept for readable stack traces,
  // and the source map (node --enable-source-maps) leads back to the TypeScript.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  sourcemap: 'linked',
  logLevel: 'warning',
});
