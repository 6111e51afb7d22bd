import { leaderboardApi, type TeamCompletion, type UserCompletion } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { CachedJson } from '../../lib/cached-json.js';
import { KeyedCache } from '../../lib/invalidation.js';
import { getScoreView } from '../scoreboard/scoreboard.service.js';
import { answerAtBoardValues, type BoardValuedAnswer } from '../scoreboard/scoreboard.views.js';
import { dropTouchedBySolves } from '../scoreboard/solve-feed.js';
import { listTeamCompletions, touchesMemberOrTeam } from '../teams/teams.views.js';
import { USER_ANSWER_CACHE_SIZE, listCompletionsOfUser } from '../users/users.service.js';

/**
 * A caller's completions as stored (their own, their team's with the points they were worth when
 * read), and the answer last serialised from them with the board's current values.
 */
interface CompletionsEntry {
  userCompletions: UserCompletion[];
  /** The team's kept list (listTeamCompletions), shared with its other members' answers. */
  teamCompletions: readonly TeamCompletion[];
  teamId: number | null;
  valued: BoardValuedAnswer | null;
}

const caches = new WeakMap<AppContext, KeyedCache<number, CompletionsEntry>>();

function completionsCache(ctx: AppContext): KeyedCache<number, CompletionsEntry> {
  let cache = caches.get(ctx);
  if (cache) return cache;
  cache = new KeyedCache<number, CompletionsEntry>(
    ctx.bus,
    // The same writes as the team's answer (teams.views.ts): memberships, removals, any solve
    // deleted or challenge changed; awards do not show here but are rare, so they drop it too.
    ['teams', 'users', 'solves', 'challenges'],
    USER_ANSWER_CACHE_SIZE,
    // A correct flag changes the answers of its solver and of its solver's team only.
    dropTouchedBySolves(ctx.database, touchesMemberOrTeam),
  );
  caches.set(ctx, cache);
  return cache;
}

/**
 * POST /api/info/get-completions for the caller, read from the database once per change and kept
 * per user; serialised again only when a team completion's value on the board the caller sees
 * moved (a dynamic challenge, the freeze: answerAtBoardValues). The same answer as getOwnCompletions.
 */
export async function getOwnCompletionsAnswer(ctx: AppContext, user: UserRow): Promise<CachedJson> {
  const entry = await completionsCache(ctx).get(user.id, async () => {
    const [userCompletions, teamCompletions] = await Promise.all([
      listCompletionsOfUser(ctx, user.id),
      user.team_id === null ? Promise.resolve([]) : listTeamCompletions(ctx, user.team_id),
    ]);
    return { userCompletions, teamCompletions, teamId: user.team_id, valued: null };
  });
  const board =
    entry.teamCompletions.length > 0 ? (await getScoreView(ctx, { live: user.is_admin === 1 })).board : null;
  entry.valued = answerAtBoardValues(entry.valued, board, entry.teamCompletions, (teamCompletions) =>
    CachedJson.of(leaderboardApi.getCompletions.response, {
      userCompletions: entry.userCompletions,
      teamCompletions: [...teamCompletions],
    }),
  );
  return entry.valued.answer;
}
