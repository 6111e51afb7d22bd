import { LEADERBOARD_PAGE, leaderboardApi } from '@ctf/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { sendCachedJson } from '../../plugins/cached-json.js';
import { route } from '../../plugins/route.js';
import { sessionUser } from '../../plugins/session.js';
import { wantsLiveBoard } from '../scoreboard/scoreboard.routes.js';
import { getLeaderboard, getLeaderboardPage } from './leaderboard.service.js';
import { getOwnCompletionsAnswer } from './completions-answer.js';
import { resolveDivisionFilter } from '../divisions/divisions.service.js';

export function registerLeaderboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  // NOTE: 'anonymous': the whole board is the same bytes for everyone and never looks up a
  // session (but during a freeze, when admins get the live board). A page names the caller's rank
  // in a header, so only pages look the caller up; the page's bytes (and ETag) stay shared, the
  // header is added per answer (a 304 carries it too).
  route(app, leaderboardApi.leaderboard, 'anonymous', async (request, reply) => {
    // ?division=NAME (issue 19): one division, ranked within it; ignored while the site has none.
    const division =
      request.query.division === undefined
        ? undefined
        : (await resolveDivisionFilter(ctx, request.query.division))?.id;
    const live = await wantsLiveBoard(ctx, request);
    if (!leaderboardApi.isPagedQuery(request.query))
      return sendCachedJson(
        request,
        reply,
        (await getLeaderboard(ctx, { live, division })).answer,
        live ? 'private' : 'public',
      );
    const page = await getLeaderboardPage(ctx, request.query, await sessionUser(ctx, request), {
      live,
      division,
    });
    void reply.header(LEADERBOARD_PAGE.totalHeader, String(page.total));
    if (page.callerRank !== null)
      void reply.header(LEADERBOARD_PAGE.callerRankHeader, String(page.callerRank));
    return sendCachedJson(request, reply, page.answer, 'private');
  });

  // The caller's own completions, kept per user and serialised once per change, as user and team
  // info are. The POST's body is validated and otherwise ignored; the GET, which the web asks for,
  // has no body to read and parse (a POST's body costs the server more than the rest of this
  // answer) and an ETag the browser revalidates.
  const ownCompletions = async (request: FastifyRequest, reply: FastifyReply) =>
    sendCachedJson(request, reply, await getOwnCompletionsAnswer(ctx, request.user!), 'private');
  route(app, leaderboardApi.getCompletions, 'user', ownCompletions);
  route(app, leaderboardApi.ownCompletions, 'user', ownCompletions);
}
