import Fastify from 'fastify';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { CachedJson } from '../lib/cached-json.js';
import { WEB_ROUTES, pageName, registerWebApp } from './web-app.js';

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const INDEX = '<!doctype html><title>CTF</title><div id="root"></div>';

/** A tiny built web app: an asset with its .br and .gz copies, and one without copies. */
async function appWithDist() {
  dir = mkdtempSync(path.join(tmpdir(), 'ctf-webdist-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(path.join(dir, 'index.html.br'), brotliCompressSync(INDEX));
  // A stale copy (the page was edited after the build compressed it) must never be sent.
  writeFileSync(path.join(dir, 'index.html.gz'), gzipSync('<!doctype html><title>Old</title>'));
  const js = `export const big = ${JSON.stringify('x'.repeat(5000))};\n`;
  writeFileSync(path.join(dir, 'assets/app-abc.js'), js);
  writeFileSync(path.join(dir, 'assets/app-abc.js.br'), brotliCompressSync(js));
  writeFileSync(path.join(dir, 'assets/app-abc.js.gz'), gzipSync(js));
  writeFileSync(path.join(dir, 'assets/tiny-abc.js'), 'export {};\n');
  const app = Fastify();
  await registerWebApp(app, dir);
  return { app, js };
}

describe('the web app plugin', () => {
  it('sends the Brotli or gzip copy made at build time to browsers that accept it', async () => {
    const { app, js } = await appWithDist();
    const br = await app.inject({
      url: '/assets/app-abc.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers['content-type'])).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(js);

    const gz = await app.inject({ url: '/assets/app-abc.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(js);

    const plain = await app.inject({ url: '/assets/app-abc.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(js);

    // A file with no compressed copy is sent as it is.
    const tiny = await app.inject({ url: '/assets/tiny-abc.js', headers: { 'accept-encoding': 'br' } });
    expect(tiny.statusCode).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('export {};\n');
    await app.close();
  });

  it('sends the page in Brotli when accepted, never a copy that differs from it', async () => {
    const { app } = await appWithDist();
    for (const url of ['/', '/compete', '/no-such-page']) {
      const br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(INDEX);
      const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBeUndefined();
      expect(gz.body).toBe(INDEX);
    }
    expect(
      (await app.inject({ url: '/no-such-page', headers: { 'accept-encoding': 'br' } })).statusCode,
    ).toBe(404);
    await app.close();
  });

  it('still answers unknown assets with 404', async () => {
    const { app } = await appWithDist();
    const res = await app.inject({ url: '/assets/missing.js', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(404);
    await app.close();
  });

  it('sends a route the page the build made for it (preloading its code), the 404 its own, the rest index.html', async () => {
    const { app } = await appWithDist();
    mkdirSync(path.join(dir, 'pages'));
    const page = (name: string) => `${INDEX}<link rel="modulepreload" href="/assets/${name}.js">`;
    for (const name of ['leaderboard', 'admin-panel', 'challenge-help', 'home', 'not-found']) {
      writeFileSync(path.join(dir, 'pages', `${name}.html`), page(name));
      writeFileSync(path.join(dir, 'pages', `${name}.html.br`), brotliCompressSync(page(name)));
    }
    await app.close();
    const fresh = Fastify();
    await registerWebApp(fresh, dir);
    const body = async (url: string) => {
      const res = await fresh.inject({ url, headers: { 'accept-encoding': 'br' } });
      return { status: res.statusCode, html: brotliDecompressSync(res.rawPayload).toString() };
    };
    expect(await body('/leaderboard')).toEqual({ status: 200, html: page('leaderboard') });
    expect(await body('/admin/panel')).toEqual({ status: 200, html: page('admin-panel') });
    expect(await body('/challenge_help')).toEqual({ status: 200, html: page('challenge-help') });
    expect(await body('/')).toEqual({ status: 200, html: page('home') });
    expect(await body('/nowhere')).toEqual({ status: 404, html: page('not-found') });
    expect(await body('/compete')).toEqual({ status: 200, html: INDEX });
    await fresh.close();
  });

  it("sends a page's first view when the server rendered one: compressed, revalidated by its ETag, private when personal", async () => {
    const { app } = await appWithDist();
    await app.close();
    const rendered = new CachedJson(`<!doctype html><div id="root">${'drawn '.repeat(400)}</div>`);
    const asked: { route: string; template: string }[] = [];
    const fresh = Fastify();
    await registerWebApp(fresh, dir, async (_request, route, template) => {
      asked.push({ route, template });
      return route === '/rules' ? { page: rendered, personal: true } : null;
    });
    const res = await fresh.inject({ url: '/rules', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(rendered.json);
    expect(asked).toEqual([{ route: '/rules', template: INDEX }]);
    const again = await fresh.inject({
      url: '/rules',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    // A page the hook leaves alone is the built page, as before.
    const plain = await fresh.inject({ url: '/login', headers: { 'accept-encoding': 'identity' } });
    expect(plain.body).toBe(INDEX);
    await fresh.close();
  });

  const webDist = fileURLToPath(new URL('../../../web/dist', import.meta.url));
  it.runIf(existsSync(path.join(webDist, 'index.html')))(
    'has, in the real build, a page for every route that preloads a chunk the first page does not load',
    () => {
      const index = readFileSync(path.join(webDist, 'index.html'), 'utf8');
      for (const route of WEB_ROUTES) {
        const html = readFileSync(path.join(webDist, 'pages', `${pageName(route)}.html`), 'utf8');
        const preloads = [...html.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map(
          (m) => m[1]!,
        );
        expect(
          preloads.filter((href) => !index.includes(href)),
          route,
        ).not.toEqual([]);
      }
    },
  );
});
