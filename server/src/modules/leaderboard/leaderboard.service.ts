import type { LeaderboardEntry, TeamCompletion, UserCompletion } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { CachedValue } from '../../lib/invalidation.js';
import { CachedJson } from '../../lib/cached-json.js';
import { listTeamCompletions } from '../teams/teams.service.js';
import { listCompletionsOfUser } from '../users/users.service.js';
import { listCompetitors } from './leaderboard.repo.js';

/** The leaderboard, serialised once per change and shared by every caller. */
export interface LeaderboardAnswer {
  entries: LeaderboardEntry[];
  answer: CachedJson;
}

const caches = new WeakMap<AppContext, CachedValue<LeaderboardAnswer>>();

function leaderboardCache(ctx: AppContext): CachedValue<LeaderboardAnswer> {
  let cache = caches.get(ctx);
  if (!cache) {
    // Scores move with solves, challenge points, team names and removals, and who is an admin.
    cache = new CachedValue(ctx.bus, ['solves', 'challenges', 'teams', 'users'], async () => {
      const rows = await listCompetitors(ctx.database.db, ctx.database.dialect);
      const entries = rows.map((r) => ({ name: r.name, points: r.points }));
      return { entries, answer: new CachedJson(JSON.stringify(entries)) };
    });
    caches.set(ctx, cache);
  }
  return cache;
}

/** The public leaderboard (DESIGN.md §4): teams and teamless users with points, best first. */
export async function getLeaderboard(ctx: AppContext): Promise<LeaderboardAnswer> {
  return leaderboardCache(ctx).get();
}

/** The caller's own completions, whatever a request body claims (DESIGN.md §5). */
export async function getOwnCompletions(
  ctx: AppContext,
  user: UserRow,
): Promise<{ userCompletions: UserCompletion[]; teamCompletions: TeamCompletion[] }> {
  const [userCompletions, teamCompletions] = await Promise.all([
    listCompletionsOfUser(ctx, user.id),
    user.team_id === null ? Promise.resolve([]) : listTeamCompletions(ctx, user.team_id),
  ]);
  return { userCompletions, teamCompletions };
}
