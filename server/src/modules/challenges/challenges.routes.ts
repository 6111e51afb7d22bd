import { adminApi, challengesApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { route } from '../../plugins/route.js';
import { requireStaff } from '../../plugins/session.js';
import { sendCachedJson } from '../../plugins/cached-json.js';
import { getChallengeDetail, getPublicChallengeList } from './challenges.service.js';
import { unlockHint } from './hint-unlock.js';
import { stopReleaseAnnouncements } from './release-announcements.js';
import { checkAdminApiToken, competitorRef, revealTeamFlag, serviceTeamFlag } from './team-flags.service.js';

export function registerChallengeRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onClose', async () => stopReleaseAnnouncements(ctx));
  // The same bytes for every caller (it is fetched without credentials), so it revalidates by ETag.
  route(app, challengesApi.challengeList, 'anonymous', async (request, reply) =>
    sendCachedJson(request, reply, (await getPublicChallengeList(ctx)).answer),
  );

  route(app, challengesApi.challengeDetail, 'user', async (request) =>
    getChallengeDetail(ctx, request.user!, request.body.challenge_id),
  );

  route(app, challengesApi.unlockHint, 'user', async (request) =>
    unlockHint(ctx, request.user!, request.body.hint_id),
  );

  // Per-team flags (issue 18): an admin on demand (audited), and an author's service by token.
  route(app, adminApi.revealTeamFlag, 'admin', async (request) =>
    revealTeamFlag(ctx, requireStaff(request), {
      challengeId: request.body.challenge_id,
      competitor: competitorRef(request.body.competitor, request.body),
    }),
  );
  const ep = adminApi.serviceTeamFlag;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: ep.method,
    url: ep.path,
    // The token, not a session, decides: the session plugin does not look the caller up.
    config: { anonymous: true },
    schema: { querystring: ep.query, response: { 200: ep.response } },
    // Checked before the query is validated, so a caller without the token learns nothing more.
    onRequest: async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      checkAdminApiToken(ctx, request.headers.authorization);
    },
    handler: async (request) => serviceTeamFlag(ctx, request.query),
  });
}
