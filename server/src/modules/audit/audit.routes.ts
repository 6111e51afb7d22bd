import { integrityApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { route } from '../../plugins/route.js';
import { requireStaff } from '../../plugins/session.js';
import { listAudit } from './audit.service.js';

/** The audit log is read-only through the site: no route edits or deletes an entry. */
export function registerAuditRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, integrityApi.getAudit, 'admin', async (request) =>
    listAudit(ctx.database.db, request.query, { role: requireStaff(request).role, now: ctx.clock.now() }),
  );
}
