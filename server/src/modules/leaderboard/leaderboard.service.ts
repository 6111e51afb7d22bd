import {
  LEADERBOARD_PAGE,
  MESSAGES,
  type LeaderboardEntry,
  type LeaderboardQuery,
  type TeamCompletion,
  type UserCompletion,
} from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { CachedJson } from '../../lib/cached-json.js';
import { DomainError } from '../../lib/errors.js';
import { listTeamCompletions } from '../teams/teams.views.js';
import { listCompletionsOfUser } from '../users/users.service.js';
import type { Competitor } from '../scoreboard/score-board.js';
import { getScoreView } from '../scoreboard/scoreboard.service.js';
import {
  divisionName,
  leaderboardEntries,
  rankedOf,
  withBoardPoints,
} from '../scoreboard/scoreboard.views.js';
import { BoardPages } from './leaderboard-pages.js';

/** The leaderboard, serialised once per change of its board and shared by every caller. */
export interface LeaderboardAnswer {
  /** The whole board's entries, built on first demand. */
  readonly entries: LeaderboardEntry[];
  /** The whole board's answer, serialised on first demand (a page reader never needs it). */
  readonly answer: CachedJson;
  /** The freeze time when this is the public board of a freeze; null when live. */
  frozenAt: string | null;
  /** This version's pages, search and ranks, each built on first demand. */
  pages: BoardPages<Competitor>;
}

/**
 * The leaderboard (docs/product.md §12, §15): teams and teamless users with points, best first, read from
 * the one score board (scoreboard module), which a correct flag updates in O(what changed).
 * Everyone but admins (live: true) sees it as of the freeze from the freeze time on. With
 * `division` (issue 19, a resolved division's id) only that division's competitors, ranked
 * within it; each division's answer and pages are kept apart (the memo key names the division).
 */
export async function getLeaderboard(
  ctx: AppContext,
  options: { live: boolean; division?: number } = { live: false },
): Promise<LeaderboardAnswer> {
  const { board, frozenAt } = await getScoreView(ctx, options);
  const division = options.division;
  const key = division === undefined ? 'leaderboard' : `leaderboard:d${division}`;
  return board.memo<LeaderboardAnswer>(key, (previous) => {
    const version = board.version;
    // The board's own ranking (it moves in place at the next change) or this version's division's.
    const ranked = rankedOf(board, division);
    let entries: LeaderboardEntry[] | undefined;
    let answer: CachedJson | undefined;
    return {
      // Built on first demand: a page reader (the web) never needs the whole board.
      get entries() {
        return (entries ??= leaderboardEntries(board, division));
      },
      get answer() {
        return (answer ??= new CachedJson(JSON.stringify(this.entries)));
      },
      frozenAt,
      pages: new BoardPages(
        ranked,
        {
          placeOf: (kind, id) => {
            const comp = board.competitor(kind, id);
            if (comp === undefined) return -1;
            // NOTE: a binary search holds while the board is at this version; a reader that kept
            // these pages over a change (its rows no longer in order by their scores) scans.
            return board.version === version ? board.placeOf(comp, ranked) : ranked.indexOf(comp);
          },
          // With divisions each row names its division; without, the rows are the board's.
          divisionOf: board.divisions.size === 0 ? undefined : (row) => divisionName(board, row),
        },
        previous?.pages,
      ),
    };
  });
}

/** One page of the leaderboard, and what its headers tell. */
export interface LeaderboardPage {
  answer: CachedJson;
  total: number;
  /** The caller's competitor's rank; null for visitors and for callers off the board. */
  callerRank: number | null;
}

/**
 * A page of the same board `getLeaderboard` answers whole (LeaderboardQuery): a slice by offset,
 * the slice around the caller's competitor, or a slice of a name search. Each slice is serialised
 * once per board version, whoever asks.
 */
export async function getLeaderboardPage(
  ctx: AppContext,
  query: LeaderboardQuery,
  caller: Pick<UserRow, 'id' | 'team_id' | 'is_admin'> | null,
  options: { live: boolean; division?: number } = { live: false },
): Promise<LeaderboardPage> {
  if (query.around === 'me' && !caller) throw new DomainError('unauthenticated', MESSAGES.unauthorized);
  // Within a division, ranks, totals and the caller's rank are the division's (null: not in it).
  const { pages } = await getLeaderboard(ctx, options);
  const callerRank = caller && caller.is_admin !== 1 ? pages.rankOf(caller) : null;
  const limit = query.limit ?? LEADERBOARD_PAGE.defaultLimit;
  let offset = query.offset ?? 0;
  if (query.around === 'me' && callerRank !== null) {
    // The caller in the middle of the page, the page within the board.
    offset = Math.max(0, Math.min(callerRank - 1 - Math.floor(limit / 2), pages.size - limit));
  }
  const slice = pages.slice(offset, limit, query.q ?? '');
  return { answer: slice.answer, total: slice.total, callerRank };
}

/**
 * The caller's own completions, whatever a request body claims (docs/product.md §13). Team completions
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
    teamCompletions: withBoardPoints(view.board, teamCompletions),
  };
}
