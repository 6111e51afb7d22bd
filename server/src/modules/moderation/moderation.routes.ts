import { adminApi, integrityApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { route } from '../../plugins/route.js';
import { requireStaff } from '../../plugins/session.js';
import { setCompeting } from './competing.js';
import { moderate } from './moderation.service.js';

export function registerModerationRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, integrityApi.moderate, 'admin', async (request) =>
    moderate(ctx, requireStaff(request), request.body),
  );
  route(app, adminApi.setCompeting, 'admin', async (request) =>
    setCompeting(ctx, requireStaff(request), request.body.user_id, request.body.competing),
  );
}
