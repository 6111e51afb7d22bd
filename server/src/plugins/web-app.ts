import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { acceptedCodings, type CachedJson } from '../lib/cached-json.js';

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
  '/reset-password',
] as const;

/**
 * A page's first view rendered by the server (modules/first-view), or null to send the page's
 * template as it is (the browser draws it). `template` is the route's built page.
 */
export type FirstViewHook = (
  request: FastifyRequest,
  route: string,
  template: string,
) => Promise<{ page: CachedJson; personal: boolean } | null>;

/**
 * Serves the built web app: hashed assets cached for a year (Brotli or gzip copies made at build
 * time when the browser accepts them), for each SPA route its page (index.html preloading that
 * page's code, made by scripts/route-pages.mjs; index.html itself when the build has none), and
 * a 404 with the app (which shows its not-found page) for anything else. Unknown /api paths get
 * a JSON 404.
 */
export async function registerWebApp(
  app: FastifyInstance,
  webDist: string,
  firstView?: FirstViewHook,
): Promise<void> {
  const indexFile = path.join(webDist, 'index.html');
  const built = existsSync(indexFile);
  const index = built
    ? builtPage(indexFile)
    : {
        html: '<!doctype html><title>CTF</title><p>The web app is not built yet: run <code>npm run build</code>.</p>',
        br: null,
        gz: null,
      };
  /** The route's own copy of index.html, preloading its page's code, when the build made one. */
  const pageFor = (name: string): BuiltPage => {
    const file = path.join(webDist, 'pages', `${name}.html`);
    return built && existsSync(file) ? builtPage(file) : index;
  };

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

  const sendPage = (page: BuiltPage, status: number) => (request: FastifyRequest, reply: FastifyReply) => {
    void reply.status(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-cache');
    void reply.header('Vary', 'Accept-Encoding');
    const accepted = acceptedCodings(request.headers['accept-encoding'] ?? '');
    if (page.br && accepted.has('br')) return reply.header('Content-Encoding', 'br').send(page.br);
    if (page.gz && accepted.has('gzip')) return reply.header('Content-Encoding', 'gzip').send(page.gz);
    return reply.send(page.html);
  };

  for (const r of WEB_ROUTES) {
    const page = pageFor(pageName(r));
    const send = sendPage(page, 200);
    if (!firstView || !built) {
      app.get(r, send);
      continue;
    }
    app.get(r, async (request, reply) => {
      const rendered = await firstView(request, r, page.html);
      if (!rendered) return send(request, reply);
      return sendRenderedPage(request, reply, rendered.page, rendered.personal);
    });
  }
  const notFound = sendPage(pageFor('not-found'), 404);

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api' || request.method !== 'GET') {
      return reply
        .status(404)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ message: 'Not found' }));
    }
    return notFound(request, reply);
  });
}

/**
 * A first view the server rendered: compressed once per coding, revalidated by its ETag. A
 * signed-in caller's copy says so (it is their user pages' content), so it stays private.
 */
function sendRenderedPage(request: FastifyRequest, reply: FastifyReply, page: CachedJson, personal: boolean) {
  const coding = page.codingFor(request.headers['accept-encoding']);
  const etag = page.etag(coding);
  void reply
    .header('etag', etag)
    .header('cache-control', personal ? 'private, no-cache' : 'no-cache')
    .header('vary', 'Accept-Encoding, Cookie');
  if (ifNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
  if (coding !== 'identity') void reply.header('content-encoding', coding);
  return reply.type('text/html; charset=utf-8').send(page.body(coding));
}

function ifNoneMatch(header: string | undefined, etag: string): boolean {
  return !!header && header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** The name of a route's page module, web/src/app/routes/<name>.tsx: `/` is home, `/` and `_` are `-`. */
export function pageName(route: string): string {
  return route === '/' ? 'home' : route.slice(1).replace(/[/_]/g, '-');
}

interface BuiltPage {
  html: string;
  br: Buffer | null;
  gz: Buffer | null;
}

/**
 * A page of the build with the Brotli and gzip copies made beside it (it carries its first paint's
 * CSS inline, ~18 kB): a copy is kept only when it matches the page byte for byte.
 */
function builtPage(file: string): BuiltPage {
  const html = readFileSync(file, 'utf8');
  const copy = (suffix: 'br' | 'gz', decode: (b: Buffer) => Buffer): Buffer | null => {
    if (!existsSync(`${file}.${suffix}`)) return null;
    const bytes = readFileSync(`${file}.${suffix}`);
    return decode(bytes).toString('utf8') === html ? bytes : null;
  };
  return { html, br: copy('br', brotliDecompressSync), gz: copy('gz', gunzipSync) };
}
