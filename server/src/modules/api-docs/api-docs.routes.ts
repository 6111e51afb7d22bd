import { API_DOCS_PATH, OPENAPI_PATH } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { RegisteredRoute } from '../../plugins/route-table.js';
import { sessionCookieName } from '../../plugins/session.js';
import { VERSION } from '../site/site.routes.js';
import { renderDocsPage } from './docs-page.js';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi.js';

/**
 * GET /api/openapi.json and GET /api/docs: the API reference, built from the contract on the first
 * request (every route is registered by then) and kept: it changes only with the code.
 */
export function registerApiDocsRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  routes: RegisteredRoute[],
): void {
  let doc: OpenApiDocument | undefined;
  let json: string | undefined;
  let page: string | undefined;
  const document = () =>
    (doc ??= buildOpenApiDocument({
      version: VERSION,
      publicUrl: ctx.config.publicUrl,
      sessionCookie: sessionCookieName(ctx),
      accessOf: (method, path) => routes.find((r) => r.method === method && r.url === path)?.access,
    }));

  app.get(OPENAPI_PATH, { config: { anonymous: true } }, async (_request, reply) => {
    json ??= JSON.stringify(document());
    return reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(json);
  });

  app.get(API_DOCS_PATH, { config: { anonymous: true } }, async (_request, reply) => {
    page ??= await renderDocsPage(document(), OPENAPI_PATH);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
  });
}
