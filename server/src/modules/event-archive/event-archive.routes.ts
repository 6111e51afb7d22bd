import { adminApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { route } from '../../plugins/route.js';
import { requireStaff } from '../../plugins/session.js';
import { streamArchiveZip } from './event-archive.service.js';

/** GET /api/admin/archive.zip (issue 32): the event's static archive, streamed as it is built. */
export function registerEventArchiveRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, adminApi.eventArchive, 'admin', async (request, reply) => {
    const zip = await streamArchiveZip(ctx, requireStaff(request));
    const day = ctx.clock.now().toISOString().slice(0, 10);
    return reply
      .type('application/zip')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename="event-archive-${day}.zip"`)
      .send(zip);
  });
}
