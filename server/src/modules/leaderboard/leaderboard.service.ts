import type { LeaderboardEntry, TeamCompletion, UserCompletion } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { CachedJson } from '../../lib/cached-json.js';
import { listTeamCompletions } from '../teams/teams.service.js';
import { listCompletionsOfUser } from '../users/users.service.js';
import { getScoreView } from '../scoreboard/scoreboard.service.js';
import { leaderboardEntries } from '../scoreboard/scoreboard.views.js';

/** The leaderboard, serialised once per change of its board and shared by every caller. */
export interface LeaderboardAnswer {
  entries: LeaderboardEntry[];
  answer: CachedJson;
  /** The freeze time when this is the public board of a freeze; null when live. */
  frozenAt: string | null;
}

/**
 * The leaderboard (DESIGN.md §4, §8): teams and teamless users with points, best first, read from
 * the one score board (scoreboard module), which a correct flag updates in O(what changed).
 * Everyone but admins (live: true) sees it as of the freeze from the freeze time on.
 */
export async function getLeaderboard(
  ctx: AppContext,
  options: { live: boolean } = { live: false },
): Promise<LeaderboardAnswer> {
  const { board, frozenAt } = await getScoreView(ctx, options);
  return board.memo('leaderboard', () => {
    const entries = leaderboardEntries(board);
    return { entries, answer: new CachedJson(JSON.stringify(entries)), frozenAt };
  });
}

/**
 * The caller's own completions, whatever a request body claims (DESIGN.md §5). Team completions
 * show each challenge's current value as the caller's board has it (as of the freeze for players).
 */
export async function getOwnCompletions(
  ctx: AppContext,
  user: UserRow,
): Promise<{ userCompletions: UserCompletion[]; teamCompletions: TeamCompletion[] }> {
  const [userCompletions, teamCompletions, view] = await Promise.all([
    listCompletionsOfUser(ctx, user.id),
    user.team_id === null ? Promise.resolve([]) : listTeamCompletions(ctx, user.team_id),
    getScoreView(ctx, { live: user.is_admin === 1 }),
  ]);
  return {
    userCompletions,
    teamCompletions: teamCompletions.map((c) => ({
      ...c,
      points: view.board.values.get(Number(c.id)) ?? c.points,
    })),
  };
}
