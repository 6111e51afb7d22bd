import { leaderboardApi } from '@ctf/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { sendCachedJson } from '../../plugins/cached-json.js';
import { route } from '../../plugins/route.js';
import { lookUpUser } from '../../plugins/session.js';
import { activeFreeze } from '../scoreboard/scoreboard.service.js';
import { getLeaderboard, getOwnCompletions } from './leaderboard.service.js';

/**
 * Whether the caller gets the live board: only an admin, and the question is asked only while a
 * freeze is in force (before it everyone gets the same live answer without a session read).
 */
export async function wantsLiveBoard(ctx: AppContext, request: FastifyRequest): Promise<boolean> {
  if ((await activeFreeze(ctx)) === null) return false;
  return (await lookUpUser(ctx, request))?.is_admin === 1;
}

export function registerLeaderboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, leaderboardApi.leaderboard, 'anonymous', async (request, reply) => {
    const live = await wantsLiveBoard(ctx, request);
    return sendCachedJson(
      request,
      reply,
      (await getLeaderboard(ctx, { live })).answer,
      live ? 'private' : 'public',
    );
  });

  // The body is validated and otherwise ignored: the answer is always the caller's own.
  route(app, leaderboardApi.getCompletions, 'user', async (request) => getOwnCompletions(ctx, request.user!));
}
