/**
 * The packages the bundled server (server/dist/server.js) imports from node_modules at run time
 * instead of carrying them: the native SQLite and Argon2 bindings, and what only some sites load, lazily (pg
 * and ioredis for scale-out, dockerode for per-team challenge instances, nodemailer for e-mail accounts). Read by scripts/bundle-server.mjs (what to leave out of the bundle)
 * and scripts/docker/copy-runtime-modules.mjs (what the container image must still carry).
 */
export const EXTERNAL_PACKAGES = [
  'better-sqlite3',
  'pg',
  'ioredis',
  'dockerode',
  '@node-rs/argon2',
  'nodemailer',
];
