#!/usr/bin/env node
/**
 * Drops the CSS rules no page can use, run by the web build script after `vite build` (before
 * precompress). The app imports the whole of Bootstrap (230 kB, render-blocking) and uses a
 * fraction of it. A selector stays when every class it needs may appear in the app: named in a
 * string of the code or in index.html, or made at run time from named parts as react-bootstrap
 * does (`btn-${variant}`, `navbar-expand-${expand}`, `row-cols-${bp}-${n}`): a class is kept when
 * it splits at dashes into at most four pieces that each appear in those strings. The test errs
 * towards keeping: a word that only happens to match keeps a rule nobody needed, never the other
 * way round. Classes inside :not(), :is(), :where() and :has() are not required (`:not(.x)`
 * matches more when .x is unused, never less).
 *
 * The trimmed file gets a new content hash (it is cached for a year as immutable), and index.html
 * is pointed at it.
 *
 * Usage: node scripts/trim-css.mjs [distDir] (default web/dist).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAst } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(process.argv[2] ?? path.join(here, '../web/dist'));
const assets = path.join(dist, 'assets');
const indexPath = path.join(dist, 'index.html');

const html = readFileSync(indexPath, 'utf8');
const cssHrefs = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="\/assets\/([^"]+\.css)"/g)].map(
  (m) => m[1],
);
if (cssHrefs.length === 0) {
  console.log('trim-css: no stylesheet in index.html, nothing to do');
  process.exit(0);
}

/**
 * The words (letters, digits, _ and -) of every string and number in the web's source, the
 * contract's and react-bootstrap's (the one dependency that writes Bootstrap classes), and of
 * index.html, each with and without its edge dashes. Literals only: names in code would keep
 * whole families of utilities for nothing. (Challenge descriptions may not carry a class.)
 */
const words = new Set();
function addWords(text) {
  for (const [w] of text.matchAll(/[A-Za-z0-9_-]+/g)) {
    words.add(w);
    const bare = w.replace(/^-+|-+$/g, '');
    if (bare) words.add(bare);
  }
}
function addLiterals(node) {
  if (Array.isArray(node)) {
    for (const n of node) addLiterals(n);
    return;
  }
  if (!node || typeof node !== 'object') return;
  if (node.type === 'Literal' && (typeof node.value === 'string' || typeof node.value === 'number')) {
    addWords(String(node.value));
  } else if (node.type === 'TemplateElement') {
    addWords(node.value.cooked ?? node.value.raw);
  }
  for (const key in node) if (key !== 'type') addLiterals(node[key]);
}
function* sources(dir, ext) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full, ext);
    else if (ext.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) yield full;
  }
}
const webSrc = path.join(here, '../web/src');
const require = createRequire(path.join(here, '../web/package.json'));
const rbDir = path.join(path.dirname(require.resolve('react-bootstrap/package.json')), 'esm');

addWords(html);
const rbUsed = new Set();
for (const [dir, ext] of [
  [webSrc, /\.tsx?$/],
  [path.join(here, '../contract/src'), /\.ts$/],
]) {
  for (const file of sources(dir, ext)) {
    const code = readFileSync(file, 'utf8');
    addLiterals(parseAst(code, { lang: 'tsx' }));
    for (const m of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*'react-bootstrap'/g)) {
      for (const name of m[1].split(',')) if (name.trim()) rbUsed.add(`${name.trim()}.js`);
    }
  }
}
// The react-bootstrap components the app imports, and every module of the library they import.
const queue = [...rbUsed];
const seen = new Set();
while (queue.length > 0) {
  const file = queue.shift();
  if (seen.has(file)) continue;
  seen.add(file);
  const code = readFileSync(path.join(rbDir, file), 'utf8');
  addLiterals(parseAst(code, { lang: 'js' }));
  for (const m of code.matchAll(/from\s*['"]\.\/([^'"]+?)(?:\.js)?['"]/g)) queue.push(`${m[1]}.js`);
}

/** Whether `cls` may be a class of the app: a word of the code, or up to four such words joined by dashes. */
const usable = new Map();
function mayBeUsed(cls, parts = 4) {
  if (words.has(cls)) return true;
  if (parts === 1) return false;
  const key = `${parts}:${cls}`;
  if (usable.has(key)) return usable.get(key);
  let ok = false;
  for (let i = cls.indexOf('-'); i > 0 && !ok; i = cls.indexOf('-', i + 1)) {
    ok = words.has(cls.slice(0, i)) && mayBeUsed(cls.slice(i + 1), parts - 1);
  }
  usable.set(key, ok);
  return ok;
}

/** A selector without what is inside functional pseudo-classes and attribute brackets. */
function outerPart(selector) {
  let depth = 0;
  let outer = '';
  for (const ch of selector) {
    if (ch === '(' || ch === '[') depth++;
    if (depth === 0) outer += ch;
    if (ch === ')' || ch === ']') depth--;
  }
  return outer;
}
/** The classes a selector requires, leaving out those inside functional pseudo-classes. */
function requiredClasses(selector) {
  return [...outerPart(selector).matchAll(/\.((?:\\.|[A-Za-z0-9_-])+)/g)].map((m) =>
    m[1].replace(/\\(.)/g, '$1'),
  );
}
/** The element names a selector requires (`ul li` needs ul and li). */
function requiredTags(selector) {
  return [...outerPart(selector).matchAll(/(?:^|[\s>+~])([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) =>
    m[1].toLowerCase(),
  );
}

/** Splits a selector list at top-level commas. */
function splitSelectors(list) {
  const out = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const ch = list[i];
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  out.push(list.slice(start));
  return out;
}

/** Index of the `}` closing the block whose `{` is at `open` (skips strings and comments). */
function blockEnd(css, open) {
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    const ch = css[i];
    if (ch === '"' || ch === "'") {
      i = css.indexOf(ch, i + 1);
      while (css[i - 1] === '\\') i = css.indexOf(ch, i + 1);
    } else if (ch === '/' && css[i + 1] === '*') i = css.indexOf('*/', i + 2) + 1;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  throw new Error('trim-css: unbalanced braces');
}

/**
 * Rebuilds a list of rules with the selectors `keep` accepts; recurses into @media, @supports and
 * @layer; keeps other blocks (@keyframes, @font-face) when `keepOtherBlocks`.
 */
function trim(css, keep, keepOtherBlocks) {
  let out = '';
  let i = 0;
  while (i < css.length) {
    const open = css.indexOf('{', i);
    const semi = css.indexOf(';', i);
    if (open === -1) {
      out += css.slice(i);
      break;
    }
    if (semi !== -1 && semi < open) {
      // A statement at-rule (@charset, @import): keep.
      out += css.slice(i, semi + 1);
      i = semi + 1;
      continue;
    }
    const end = blockEnd(css, open);
    const prelude = css.slice(i, open).trim();
    const body = css.slice(open + 1, end);
    if (/^@(media|supports|layer|container)\b/.test(prelude)) {
      const inner = trim(body, keep, keepOtherBlocks);
      if (inner.trim()) out += `${prelude}{${inner}}`;
    } else if (prelude.startsWith('@')) {
      if (keepOtherBlocks) out += `${prelude}{${body}}`;
    } else {
      const kept = splitSelectors(prelude).filter(keep);
      if (kept.length > 0) out += `${kept.join(',')}{${body}}`;
    }
    i = end + 1;
  }
  return out;
}

/**
 * The first paint (index.html's #root: layout, navbar, loading notice) is styled by the rules that
 * can match its elements, inlined in the head; the whole stylesheet moves to the end of the body.
 * There it still holds back the app's scripts (a parser-inserted style sheet blocks scripts, so
 * React never draws a page without it), but no longer the first paint: on a slow link the page
 * shows before 16 kB of CSS and 100 kB of JavaScript have arrived. The inlined rules are the
 * stylesheet's own, in its order, so nothing changes when it arrives.
 */
const shellHtml = /<div id="root">([\s\S]*)<\/div>\s*<\/body>/.exec(html)?.[1] ?? '';
const shellClasses = new Set(
  [...shellHtml.matchAll(/\sclass="([^"]*)"/g)].flatMap((m) => m[1].split(/\s+/).filter(Boolean)),
);
const shellTags = new Set([
  'html',
  'body',
  ...[...shellHtml.matchAll(/<([a-z][a-z0-9-]*)/g)].map((m) => m[1]),
]);
const inShell = (selector) =>
  requiredClasses(selector).every((c) => shellClasses.has(c)) &&
  requiredTags(selector).every((t) => shellTags.has(t));

/**
 * The trimmed stylesheet as a list of rules in its order, each with what its selectors need (for
 * each selector, its required classes and element names; null: always applies, as an at-rule
 * block or a rule without a selector's needs). The server picks from it the rules a server-rendered
 * page can match and inlines them in that page's head (server/src/modules/first-view): the page
 * is painted with its own content styled, not only the shell's, before the whole stylesheet
 * arrives. Rules inside @media and the like are listed one by one inside their block's prelude.
 */
function ruleIndex(css, preludes = []) {
  const rules = [];
  let i = 0;
  while (i < css.length) {
    const open = css.indexOf('{', i);
    const semi = css.indexOf(';', i);
    if (open === -1) break;
    if (semi !== -1 && semi < open) {
      i = semi + 1;
      continue;
    }
    const end = blockEnd(css, open);
    const prelude = css.slice(i, open).trim();
    const body = css.slice(open + 1, end);
    const wrap = (rule) => preludes.reduceRight((inner, outer) => `${outer}{${inner}}`, rule);
    if (/^@(media|supports|layer|container)\b/.test(prelude)) {
      rules.push(...ruleIndex(body, [...preludes, prelude]));
    } else if (prelude.startsWith('@')) {
      rules.push({ css: wrap(`${prelude}{${body}}`), needs: null });
    } else {
      const needs = splitSelectors(prelude).map((s) => [requiredClasses(s), requiredTags(s)]);
      rules.push({ css: wrap(`${prelude}{${body}}`), needs });
    }
    i = end + 1;
  }
  return rules;
}
/** Where the server's renderer is built (web/vite.config.ts), which reads the rule index. */
const rendererDir = path.join(dist, '..', 'dist-ssr');
const indexRules = [];

let newHtml = html;
for (const href of cssHrefs) {
  const before = readFileSync(path.join(assets, href), 'utf8');
  const after = trim(before, (s) => requiredClasses(s).every((c) => mayBeUsed(c)), true);
  const hash = createHash('sha256').update(after).digest('base64url').slice(0, 8);
  const name = href.replace(/-[A-Za-z0-9_-]+\.css$/, `-${hash}.css`);
  rmSync(path.join(assets, href));
  writeFileSync(path.join(assets, name), after);
  const link = new RegExp(
    `\\s*<link[^>]*rel="stylesheet"[^>]*href="/assets/${href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`,
  );
  const tag = link.exec(newHtml)?.[0].trim();
  if (!tag) throw new Error(`trim-css: no <link> for ${href} in index.html`);
  indexRules.push(...ruleIndex(after));
  const critical = shellHtml ? trim(after, inShell, false) : '';
  newHtml = newHtml
    .replace(link, critical ? `\n    <style>${critical}</style>` : '')
    .replace(/(\s*)<\/body>/, `$1  ${tag.replace(`/assets/${href}`, `/assets/${name}`)}$1</body>`);
  console.log(
    `trim-css: ${href} ${(before.length / 1000).toFixed(1)} kB -> ${name} ${(after.length / 1000).toFixed(1)} kB` +
      ` (${(critical.length / 1000).toFixed(1)} kB of it inlined for the first paint)`,
  );
}
writeFileSync(indexPath, newHtml);
if (existsSync(rendererDir)) {
  writeFileSync(path.join(rendererDir, 'page-css.json'), JSON.stringify({ rules: indexRules }));
  console.log(
    `trim-css: ${indexRules.length} rules indexed for the server-rendered pages (dist-ssr/page-css.json)`,
  );
}
