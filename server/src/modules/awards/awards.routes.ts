import { awardsApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { route } from '../../plugins/route.js';
import { requireAdmin } from '../../plugins/session.js';
import { deleteAward, giveAward, listAwardsForAdmin } from './awards.service.js';

/** The admin's awards (issue 31): give, list, delete. */
export function registerAwardRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, awardsApi.listAwards, 'admin', async () => listAwardsForAdmin(ctx));
  route(app, awardsApi.giveAward, 'admin', async (request) => ({
    _id: await giveAward(ctx, request.body, requireAdmin(request)),
  }));
  route(app, awardsApi.deleteAward, 'admin', async (request) => {
    await deleteAward(ctx, request.body.award_id, requireAdmin(request));
    return { acknowledge: true, message: 'Award deleted' };
  });
}
