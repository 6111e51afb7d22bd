#!/usr/bin/env node
/**
 * Copies into OUT the node_modules the bundled server needs at run time: the packages
 * scripts/bundle-server.mjs leaves outside the bundle (scripts/server-externals.mjs) and every
 * package they depend on, each at the same path relative to ROOT as in the built tree, so Node
 * resolves them from server/dist exactly as it does there. The container image's runtime stage
 * carries only these (a few MB) instead of every workspace's dependencies.
 *
 * Of a package's build/ folder (node-gyp's output) only the compiled addons are copied
 * (build/Release/*.node, build/Debug/*.node, where `bindings` looks): object files and makefiles
 * are not loaded at run time.
 *
 * Usage (the Dockerfile's build stage): node scripts/docker/copy-runtime-modules.mjs ROOT OUT
 */
import { cpSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { EXTERNAL_PACKAGES } from '../server-externals.mjs';

const [root, out] = process.argv.slice(2).map((p) => path.resolve(p));
if (!root || !out) {
  console.error('usage: copy-runtime-modules.mjs ROOT OUT');
  process.exit(2);
}

/** Node's lookup: DIR/node_modules/NAME, then each parent's, up to ROOT. */
function resolvePackage(fromDir, name) {
  for (let dir = fromDir; dir.startsWith(root); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === root) break;
  }
  return null;
}

const ADDON_DIRS = new Set([path.join('build', 'Release'), path.join('build', 'Debug')]);

const packages = new Set();
/** [directory to resolve from, package name, required]: optional dependencies may be absent. */
const queue = EXTERNAL_PACKAGES.map((name) => [path.join(root, 'server'), name, true]);
while (queue.length > 0) {
  const [from, name, required] = queue.shift();
  const dir = resolvePackage(from, name);
  if (!dir) {
    if (required)
      throw new Error(`${name} (needed from ${path.relative(root, from) || '.'}) is not installed`);
    continue;
  }
  if (packages.has(dir)) continue;
  packages.add(dir);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  for (const dep of Object.keys(manifest.dependencies ?? {})) queue.push([dir, dep, true]);
  for (const dep of Object.keys(manifest.optionalDependencies ?? {})) queue.push([dir, dep, false]);
}

for (const dir of packages) {
  const target = path.join(out, path.relative(root, dir));
  cpSync(dir, target, {
    recursive: true,
    filter: (source) => {
      const rel = path.relative(dir, source);
      // Nested packages are copied on their own when something depends on them.
      if (rel.split(path.sep).includes('node_modules')) return false;
      if (rel === 'build' || !rel.startsWith(`build${path.sep}`)) return true;
      if (ADDON_DIRS.has(rel)) return true;
      return ADDON_DIRS.has(path.dirname(rel)) && rel.endsWith('.node');
    },
  });
}
console.log(`copy-runtime-modules: ${packages.size} packages into ${out}`);
