import { siteApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { sendCachedJson } from '../../plugins/cached-json.js';
import { route } from '../../plugins/route.js';
import { readEventState } from '../event-state/event-state.service.js';
import { getSiteInfo } from './site.service.js';

const startedAt = Date.now();
/** The release /api/health and the API reference report: the packages' version (plugins.test.ts holds them equal). */
export const VERSION = '1.0.0';

export function registerSiteRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The same bytes for every caller, so it revalidates by ETag.
  route(app, siteApi.siteInfo, 'anonymous', async (request, reply) =>
    sendCachedJson(request, reply, await getSiteInfo(ctx)),
  );

  route(app, siteApi.health, 'anonymous', async (_request, reply) => {
    let database = true;
    try {
      await sql`select 1`.execute(ctx.database.db);
    } catch {
      database = false;
    }
    const redis = ctx.redisReady();
    // Without the database nothing works: 503 takes this process out of a load balancer. Without
    // Redis reads still work and submissions fail closed, so the process stays in, reported degraded.
    void reply.status(database ? 200 : 503);
    return {
      status: database && redis !== false ? ('ok' as const) : ('degraded' as const),
      database,
      redis,
      version: VERSION,
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
    };
  });

  // docs/product.md §2 redirects: only to configured targets, never to anything a request names.
  app.get('/tools', async (_request, reply) =>
    reply.redirect((await readEventState(ctx)).settings.toolsUrl, 302),
  );
  app.get('/discord', async (_request, reply) =>
    reply.redirect((await readEventState(ctx)).settings.communityUrl, 302),
  );
  app.get('/admin', async (_request, reply) => reply.redirect('/admin/panel', 302));
}
