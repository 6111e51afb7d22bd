#!/usr/bin/env node
/**
 * Writes a copy of index.html for each page of the web app, `pages/<name>.html`, that also
 * preloads the page's own code: its lazy chunk and the chunks it imports that the first page does
 * not already load. The browser then fetches them beside the entry instead of after it has run,
 * one round trip sooner (150 ms on Lighthouse's phone). The server sends `pages/<name>.html` for
 * the route whose page module is web/src/app/routes/<name>.tsx (server/src/plugins/web-app.ts:
 * a route's name is its path, `/` as `home`, with `/` and `_` written `-`).
 *
 * Run by the web build after trim-css (which settles index.html) and before precompress (which
 * compresses the pages too). Reads and then removes Vite's manifest (dist/.vite/manifest.json).
 *
 * Usage: node scripts/route-pages.mjs [distDir] (default web/dist).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(process.argv[2] ?? path.join(here, '../web/dist'));
const manifestDir = path.join(dist, '.vite');
const manifestFile = path.join(manifestDir, 'manifest.json');
if (!existsSync(manifestFile)) {
  console.error(`route-pages: no ${manifestFile} (build.manifest must be on in web/vite.config.ts)`);
  process.exit(1);
}
/** @type {Record<string, { file: string; src?: string; isDynamicEntry?: boolean; imports?: string[] }>} */
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
const index = readFileSync(path.join(dist, 'index.html'), 'utf8');
if (!index.includes('</head>')) throw new Error('route-pages: index.html has no </head>');
/** What index.html loads already: its module script and its modulepreloads. */
const loaded = new Set([...index.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]));

/** The chunk of manifest entry `key` and every chunk it imports statically, in load order. */
function chunksOf(key, seen = new Set()) {
  const entry = manifest[key];
  if (!entry || seen.has(key)) return [];
  seen.add(key);
  return [...(entry.imports ?? []).flatMap((k) => chunksOf(k, seen)), entry.file];
}

mkdirSync(path.join(dist, 'pages'), { recursive: true });
const written = [];
for (const [key, entry] of Object.entries(manifest)) {
  const page = /^src\/app\/routes\/([a-z0-9-]+)\.tsx$/.exec(entry.src ?? key);
  if (!page || !entry.isDynamicEntry) continue;
  const links = chunksOf(key)
    .filter((file) => !loaded.has(file))
    .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
  writeFileSync(
    path.join(dist, 'pages', `${page[1]}.html`),
    index.replace('</head>', `${links.join('')}</head>`),
  );
  written.push(`${page[1]} (+${links.length})`);
}
rmSync(manifestDir, { recursive: true, force: true });
if (written.length === 0)
  throw new Error('route-pages: no page module (src/app/routes/*.tsx) in the manifest');
console.log(`route-pages: ${written.length} pages preloading their code: ${written.join(', ')}`);
