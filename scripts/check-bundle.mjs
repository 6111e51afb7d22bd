#!/usr/bin/env node
/**
 * The first page's JavaScript budget, run after `vite build` by the web build script.
 *
 * Counts what a visitor's browser downloads to show the home page: index.html's module script,
 * its modulepreloads, every chunk they import statically, and the lazy home route with its own
 * static imports. Prints each file's gzipped size and the total, and fails the build when the
 * total passes the budget, or when the chart library or the admin panel slipped into that set
 * (both must load only when needed). Then prints what each other (lazy) page loads on top of that:
 * its route chunk with whatever it alone imports, and the chunks it loads later still (the
 * leaderboard's chart).
 *
 * The entry script alone (index.html's module script, what every page runs before it hydrates or
 * draws) has a budget of its own, 90 kB gzipped: it carries only what every page needs.
 *
 * Usage: node scripts/check-bundle.mjs [distDir] (default web/dist); BUNDLE_BUDGET_KB overrides 150,
 * ENTRY_BUDGET_KB 90.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(process.argv[2] ?? path.join(here, '../web/dist'));
const budgetKb = Number(process.env.BUNDLE_BUDGET_KB ?? 150);
const entryBudgetKb = Number(process.env.ENTRY_BUDGET_KB ?? 90);
/** The lazy route chunk the first page needs (Vite names it after web/src/app/routes/home.tsx). */
const FIRST_ROUTE = 'home';

const kb = (bytes) => (bytes / 1000).toFixed(2);
const read = (rel) => readFileSync(path.join(dist, rel.replace(/^\//, '')), 'utf8');

const html = read('index.html');
const starts = [
  ...[...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]),
  ...[...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]),
].map((p) => p.replace(/^\//, ''));
if (starts.length === 0) {
  console.error(`check-bundle: no module script in ${path.join(dist, 'index.html')}`);
  process.exit(1);
}

/** Static imports only (`import ... from "./x.js"`, `import "./x.js"`, `export ... from`); never `import("./x.js")`. */
function staticImports(file) {
  const code = read(file);
  const dir = path.posix.dirname(file);
  const found = new Set();
  for (const m of code.matchAll(
    /\bfrom\s*["'](\.{1,2}\/[^"']+\.js)["']|\bimport\s*["'](\.{1,2}\/[^"']+\.js)["']/g,
  )) {
    found.add(path.posix.normalize(path.posix.join(dir, m[1] ?? m[2])));
  }
  return [...found];
}

function closure(files) {
  const seen = new Set();
  const queue = [...files];
  while (queue.length > 0) {
    const f = queue.shift();
    if (seen.has(f)) continue;
    seen.add(f);
    queue.push(...staticImports(f));
  }
  return seen;
}

/**
 * The chunks a file names in strings: its dynamic imports (`import("./x.js")`) and their preload
 * lists (`"assets/x.js"`), which also name static imports (filtered out by the callers).
 */
function namedChunks(files) {
  const found = new Set();
  for (const f of files) {
    for (const m of read(f).matchAll(/["'`]((?:assets\/|\.\/)[^"'`]*?\.js)["'`]/g))
      found.add(m[1].replace(/^\.\//, 'assets/'));
  }
  return [...found];
}

const entryScript = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) =>
  m[1].replace(/^\//, ''),
)[0];
const entry = closure(starts);
// The home route is lazy: find its chunk among the entry's dynamic imports.
const routeChunks = namedChunks(entry).filter((f) => !entry.has(f));
const routeChunk = routeChunks.find((f) => path.posix.basename(f).startsWith(`${FIRST_ROUTE}-`));
if (!routeChunk) {
  console.error(`check-bundle: the lazy '${FIRST_ROUTE}' route chunk was not found`);
  process.exit(1);
}
const firstLoad = closure([...entry, routeChunk]);

const sizeOf = (f) => {
  const code = read(f);
  return { file: f, raw: Buffer.byteLength(code), gzip: gzipSync(code).length, code };
};
const rows = [...firstLoad].map(sizeOf).sort((a, b) => b.gzip - a.gzip);
const total = rows.reduce((s, r) => s + r.gzip, 0);
const totalRaw = rows.reduce((s, r) => s + r.raw, 0);

console.log(
  `\nFirst-page JavaScript (home page: entry, modulepreloads, static imports, '${FIRST_ROUTE}' route):`,
);
for (const r of rows)
  console.log(`  ${r.file.padEnd(44)} ${kb(r.raw).padStart(9)} kB │ gzip: ${kb(r.gzip).padStart(7)} kB`);
console.log(
  `  ${'total'.padEnd(44)} ${kb(totalRaw).padStart(9)} kB │ gzip: ${kb(total).padStart(7)} kB (budget ${budgetKb} kB)`,
);

const entryGzip = entryScript ? gzipSync(read(entryScript)).length : 0;
console.log(
  `  the entry script alone: ${entryScript} ${kb(entryGzip)} kB gzipped (budget ${entryBudgetKb} kB)`,
);

// Each other page: what opening it adds to the first page's files (its route chunk and what only
// it imports), then what it loads later on its own (a chunk it imports dynamically).
const pageName = (f) => path.posix.basename(f).replace(/-[A-Za-z0-9_-]{8}\.js$/, '');
const gzipOf = (files) => [...files].reduce((s, f) => s + sizeOf(f).gzip, 0);
const lazyRows = routeChunks
  .filter((f) => f !== routeChunk)
  .map((f) => {
    const own = new Set([...closure([f])].filter((x) => !firstLoad.has(x)));
    const later = namedChunks(own).filter((x) => !own.has(x) && !firstLoad.has(x) && !entry.has(x));
    const laterRows = later.map((x) => {
      const extra = [...closure([x])].filter((y) => !own.has(y) && !firstLoad.has(y));
      return `${pageName(x)} ${kb(gzipOf(extra))} kB`;
    });
    return { name: pageName(f), gzip: gzipOf(own), later: laterRows };
  })
  .sort((a, b) => b.gzip - a.gzip);
console.log('\nEach other page, on top of the first page (gzipped JavaScript):');
for (const r of lazyRows)
  console.log(
    `  ${r.name.padEnd(24)} ${kb(r.gzip).padStart(7)} kB${r.later.length ? `   later: ${r.later.join(', ')}` : ''}`,
  );

const problems = [];
if (entryGzip > entryBudgetKb * 1000)
  problems.push(
    `the entry script is ${kb(entryGzip)} kB of gzipped JavaScript, over its ${entryBudgetKb} kB budget`,
  );
if (total > budgetKb * 1000)
  problems.push(`the first page loads ${kb(total)} kB of gzipped JavaScript, over the ${budgetKb} kB budget`);
for (const r of rows) {
  // (u-over: the class of uPlot's overlay, named only in its code.)
  if (/["'`]u-over["'`]/.test(r.code))
    problems.push(`${r.file} holds the chart library, which must load only with the score graph`);
  // (admin-challenge-row: a test id only the admin panel's challenge table has.)
  if (/admin-challenge-row/.test(r.code))
    problems.push(`${r.file} holds the admin panel, which must load only on /admin/panel`);
}
if (problems.length > 0) {
  for (const p of problems) console.error(`check-bundle: FAIL: ${p}`);
  process.exit(1);
}
console.log('check-bundle: OK\n');
