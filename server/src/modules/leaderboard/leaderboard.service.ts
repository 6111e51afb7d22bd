import {
  compareCompetitors,
  LEADERBOARD_PAGE,
  MESSAGES,
  type LeaderboardEntry,
  type LeaderboardQuery,
  type TeamCompletion,
  type UserCompletion,
} from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { IncrementalValue } from '../../lib/invalidation.js';
import { CachedJson } from '../../lib/cached-json.js';
import { DomainError } from '../../lib/errors.js';
import { listTeamCompletions } from '../teams/teams.service.js';
import { listCompletionsOfUser } from '../users/users.service.js';
import { currentSolvePosition, readSolvesSince, type SolveFeedPosition } from '../submissions/solve-feed.js';
import { currentUnlockFeed, readUnlockFeed, type UnlockFeedPosition } from '../hints/hints.service.js';
import { BoardPages } from './leaderboard-pages.js';
import { listCompetitors, type CompetitorRow } from './leaderboard.repo.js';

/** The leaderboard, serialised once per change and shared by every caller. */
export interface LeaderboardAnswer {
  entries: LeaderboardEntry[];
  answer: CachedJson;
  /** The ranked rows and the solves they were read after: the base of the next update. */
  rows: CompetitorRow[];
  position: SolveFeedPosition;
  /** The hint unlocks it was read after (an unlock changes a score like a solve). */
  unlocks: UnlockFeedPosition;
  /** This version's pages, search and ranks, each built on first demand. */
  pages: BoardPages;
}

function answerFor(
  rows: CompetitorRow[],
  position: SolveFeedPosition,
  unlocks: UnlockFeedPosition,
): LeaderboardAnswer {
  const entries = rows.map((r) => ({ name: r.name, points: r.points }));
  return {
    entries,
    answer: new CachedJson(JSON.stringify(entries)),
    rows,
    position,
    unlocks,
    pages: new BoardPages(rows),
  };
}

const byRank = (a: CompetitorRow, b: CompetitorRow) =>
  compareCompetitors(
    { kind: a.kind, id: a.id, name: a.name, points: a.points, lastSolveAt: a.last_solve_at },
    { kind: b.kind, id: b.id, name: b.name, points: b.points, lastSolveAt: b.last_solve_at },
  );

/** Every competitor from the stored solves. The feed position is read first, never after. */
async function buildLeaderboard(ctx: AppContext): Promise<LeaderboardAnswer> {
  const [position, unlocks] = await Promise.all([
    currentSolvePosition(ctx.database.db, ctx.database.dialect),
    currentUnlockFeed(ctx),
  ]);
  return answerFor(await listCompetitors(ctx.database.db, ctx.database.dialect), position, unlocks);
}

/**
 * New solves and hint unlocks only change their own team's or competitor's row: those rows are
 * read again (by the same query, limited to them) and put in rank order among the others.
 * Anything else (a deletion, a late commit) sends it back to a full build.
 */
async function updateLeaderboard(ctx: AppContext, kept: LeaderboardAnswer): Promise<LeaderboardAnswer> {
  const [feed, unlockFeed] = await Promise.all([
    readSolvesSince(ctx.database.db, ctx.database.dialect, kept.position),
    readUnlockFeed(ctx, kept.unlocks),
  ]);
  if (!feed.consistent || !unlockFeed.consistent) return buildLeaderboard(ctx);
  if (feed.solves.length === 0 && unlockFeed.unlocks.length === 0) {
    return { ...kept, position: feed.position, unlocks: unlockFeed.position };
  }
  const teamIds = new Set<number>();
  const userIds = new Set<number>();
  for (const s of [...feed.solves, ...unlockFeed.unlocks]) {
    if (s.team_id === null) userIds.add(s.user_id);
    else teamIds.add(s.team_id);
  }
  const changed = await listCompetitors(ctx.database.db, ctx.database.dialect, {
    teamIds: [...teamIds],
    userIds: [...userIds],
  });
  const unchanged = kept.rows.filter((r) => !(r.kind === 'team' ? teamIds : userIds).has(r.id));
  return answerFor(insertRanked(unchanged, changed), feed.position, unlockFeed.position);
}

/**
 * The few changed rows put in rank order among the kept ones, which are in rank order already:
 * a binary search each instead of sorting thousands of rows again at every correct flag.
 */
function insertRanked(ranked: CompetitorRow[], rows: CompetitorRow[]): CompetitorRow[] {
  const out: CompetitorRow[] = [];
  let from = 0;
  for (const row of [...rows].sort(byRank)) {
    let lo = from;
    let hi = ranked.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (byRank(ranked[mid]!, row) < 0) lo = mid + 1;
      else hi = mid;
    }
    for (let i = from; i < lo; i++) out.push(ranked[i]!);
    out.push(row);
    from = lo;
  }
  for (let i = from; i < ranked.length; i++) out.push(ranked[i]!);
  return out;
}

const caches = new WeakMap<AppContext, IncrementalValue<LeaderboardAnswer>>();

function leaderboardCache(ctx: AppContext): IncrementalValue<LeaderboardAnswer> {
  let cache = caches.get(ctx);
  if (!cache) {
    // A new solve is applied to the kept rows; points, team names, removals and who is an admin
    // change rows that no solve names, so those rebuild it.
    cache = new IncrementalValue(
      ctx.bus,
      { full: ['challenges', 'solves', 'teams', 'users'], delta: ['solves-added', 'unlocks-added'] },
      () => buildLeaderboard(ctx),
      (kept) => updateLeaderboard(ctx, kept),
    );
    caches.set(ctx, cache);
  }
  return cache;
}

/** The public leaderboard (DESIGN.md §4): teams and teamless users with points, best first. */
export async function getLeaderboard(ctx: AppContext): Promise<LeaderboardAnswer> {
  return leaderboardCache(ctx).get();
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
): Promise<LeaderboardPage> {
  if (query.around === 'me' && !caller) throw new DomainError('unauthenticated', MESSAGES.unauthorized);
  const { pages } = await getLeaderboard(ctx);
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
