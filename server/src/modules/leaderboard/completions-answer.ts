import { leaderboardApi, type TeamCompletion, type UserCompletion } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { CachedJson } from '../../lib/cached-json.js';
import { KeyedCache } from '../../lib/invalidation.js';
import { getScoreView } from '../scoreboard/scoreboard.service.js';
import { withBoardPoints } from '../scoreboard/scoreboard.views.js';
import { followSolves } from '../scoreboard/solve-feed.js';
import { listTeamCompletions } from '../teams/teams.views.js';
import { USER_ANSWER_CACHE_SIZE, listCompletionsOfUser } from '../users/users.service.js';

/**
 * A caller's completions as stored (their own, their team's with the points they were worth when
 * read), and the answer last serialised from them with the board's current values.
 */
interface CompletionsEntry {
  userCompletions: UserCompletion[];
  teamCompletions: TeamCompletion[];
  teamId: number | null;
  valued: { points: number[]; answer: CachedJson } | null;
}

const caches = new WeakMap<AppContext, KeyedCache<number, CompletionsEntry>>();

function completionsCache(ctx: AppContext): KeyedCache<number, CompletionsEntry> {
  let cache = caches.get(ctx);
  if (cache) return cache;
  const solvesSince = followSolves(ctx.database);
  cache = new KeyedCache<number, CompletionsEntry>(
    ctx.bus,
    // The same writes as the team's answer (teams.views.ts): memberships, removals, any solve
    // deleted or challenge changed; awards do not show here but are rare, so they drop it too.
    ['teams', 'users', 'solves', 'challenges'],
    USER_ANSWER_CACHE_SIZE,
    {
      // A correct flag changes the answers of its solver and of its solver's team only.
      topics: ['solves-added'],
      stale: async () => {
        const solves = await solvesSince();
        if (!solves) return null;
        const teams = new Set(solves.map((s) => s.team_id));
        const solvers = new Set(solves.map((s) => s.user_id));
        return (userId, entry) => solvers.has(userId) || (entry.teamId !== null && teams.has(entry.teamId));
      },
    },
  );
  caches.set(ctx, cache);
  return cache;
}

/**
 * POST /api/info/get-completions for the caller, read from the database once per change and kept
 * per user; serialised again only when a team completion's value on the board the caller sees
 * moved (a dynamic challenge, the freeze). The same answer as getOwnCompletions.
 */
export async function getOwnCompletionsAnswer(ctx: AppContext, user: UserRow): Promise<CachedJson> {
  const entry = await completionsCache(ctx).get(user.id, async () => {
    const [userCompletions, teamCompletions] = await Promise.all([
      listCompletionsOfUser(ctx, user.id),
      user.team_id === null ? Promise.resolve([]) : listTeamCompletions(ctx, user.team_id),
    ]);
    return { userCompletions, teamCompletions, teamId: user.team_id, valued: null };
  });
  let teamCompletions = entry.teamCompletions;
  if (teamCompletions.length > 0) {
    const view = await getScoreView(ctx, { live: user.is_admin === 1 });
    teamCompletions = withBoardPoints(view.board, teamCompletions);
  }
  const points = teamCompletions.map((c) => c.points);
  const kept = entry.valued;
  if (kept && kept.points.length === points.length && kept.points.every((p, i) => p === points[i]))
    return kept.answer;
  const answer = CachedJson.of(leaderboardApi.getCompletions.response, {
    userCompletions: entry.userCompletions,
    teamCompletions,
  });
  entry.valued = { points, answer };
  return answer;
}
