import { challengesApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { route } from '../../plugins/route.js';
import { sendCachedJson } from '../../plugins/cached-json.js';
import { getChallengeDetail, getPublicChallengeList } from './challenges.service.js';
import { stopReleaseAnnouncements } from './public-challenges.js';

export function registerChallengeRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onClose', async () => stopReleaseAnnouncements(ctx));
  // The same bytes for every caller (it is fetched without credentials), so it revalidates by ETag.
  route(app, challengesApi.challengeList, 'anonymous', async (request, reply) =>
    sendCachedJson(request, reply, (await getPublicChallengeList(ctx)).answer),
  );

  route(app, challengesApi.challengeDetail, 'user', async (request) =>
    getChallengeDetail(ctx, request.user!, request.body.challenge_id),
  );
}
