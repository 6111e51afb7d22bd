import { leaderboardApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { sendCachedJson } from '../../plugins/cached-json.js';
import { route } from '../../plugins/route.js';
import { getLeaderboard, getOwnCompletions } from './leaderboard.service.js';

export function registerLeaderboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, leaderboardApi.leaderboard, 'anonymous', async (request, reply) =>
    sendCachedJson(request, reply, (await getLeaderboard(ctx)).answer),
  );

  // The body is validated and otherwise ignored: the answer is always the caller's own.
  route(app, leaderboardApi.getCompletions, 'user', async (request) => getOwnCompletions(ctx, request.user!));
}
