import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { acceptedCodings } from '../lib/cached-json.js';

/** Every route of docs/product.md §2 that the web app renders, and the announcements page (issue 15). */
export const WEB_ROUTES = [
  '/',
  '/login',
  '/profile',
  '/compete',
  '/challenge',
  '/rate-challenge',
  '/challenge_help',
  '/kali-setup-guide',
  '/rules',
  '/leaderboard',
  '/admin/panel',
  '/announcements',
] as const;

/**
 * Serves the built web app: hashed assets cached for a year (Brotli or gzip copies made at build
 * time when the browser accepts them), index.html for each SPA route, and
 * a 404 with the app (which shows its not-found page) for anything else. Unknown /api paths get
 * a JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const indexFile = path.join(webDist, 'index.html');
  const built = existsSync(indexFile);
  const indexHtml = built
    ? readFileSync(indexFile, 'utf8')
    : '<!doctype html><title>CTF</title><p>The web app is not built yet: run <code>npm run build</code>.</p>';

  if (built) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      index: false,
      wildcard: true,
      // The web build writes .br and .gz beside each asset (scripts/precompress.mjs).
      preCompressed: true,
      // NOTE: without this, send's own 'public, max-age=0' overwrites the header set below.
      cacheControl: false,
      setHeaders(res, filePath) {
        // A shared cache must keep the Brotli, gzip and plain answers apart.
        res.setHeader('Vary', 'Accept-Encoding');
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        } else {
          res.setHeader('Cache-Control', 'no-cache');
        }
      },
    });
  }

  // The page carries its first paint's CSS inline (~18 kB): send the build's Brotli or gzip copy
  // when the browser takes it, and only a copy that matches the page byte for byte.
  const copy = (suffix: 'br' | 'gz', decode: (b: Buffer) => Buffer): Buffer | null => {
    const file = `${indexFile}.${suffix}`;
    if (!built || !existsSync(file)) return null;
    const bytes = readFileSync(file);
    return decode(bytes).toString('utf8') === indexHtml ? bytes : null;
  };
  const indexBr = copy('br', brotliDecompressSync);
  const indexGz = copy('gz', gunzipSync);

  const sendIndex = (status: number) => (request: FastifyRequest, reply: FastifyReply) => {
    void reply.status(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-cache');
    void reply.header('Vary', 'Accept-Encoding');
    const accepted = acceptedCodings(request.headers['accept-encoding'] ?? '');
    if (indexBr && accepted.has('br')) return reply.header('Content-Encoding', 'br').send(indexBr);
    if (indexGz && accepted.has('gzip')) return reply.header('Content-Encoding', 'gzip').send(indexGz);
    return reply.send(indexHtml);
  };

  for (const r of WEB_ROUTES) app.get(r, sendIndex(200));

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api' || request.method !== 'GET') {
      return reply
        .status(404)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ message: 'Not found' }));
    }
    return sendIndex(404)(request, reply);
  });
}
