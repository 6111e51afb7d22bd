import type { CtftimeFeed, GraphSeries, ScoreboardExportRow, SolveExportRow } from '@ctf/contract';
import { compareCodePoints } from '@ctf/contract';
import type { CachedJson } from '../../lib/cached-json.js';
import type { BoardAward, Competitor, ScoreBoard } from './score-board.js';

/**
 * Answers derived from one board, so that the leaderboard, the graph, the CTFtime feed and the
 * exports cannot disagree: each reads the same ranked competitors and the same current values.
 */

/** The ranked competitors of one division (ranks within it), or the whole board (undefined). */
export function rankedOf(board: ScoreBoard, divisionId: number | undefined): readonly Competitor[] {
  return divisionId === undefined ? board.ranked : board.rankedIn(divisionId);
}

/**
 * The public leaderboard: name and points, best first; while the site has divisions (issue 19)
 * each entry also names its competitor's division (null: none). Without divisions the entries are
 * exactly docs/product.md's.
 */
export function leaderboardEntries(
  board: ScoreBoard,
  divisionId?: number,
): { name: string; points: number; division?: string | null }[] {
  const ranked = rankedOf(board, divisionId);
  if (board.divisions.size === 0) return ranked.map((c) => ({ name: c.name, points: c.points }));
  return ranked.map((c) => ({ name: c.name, points: c.points, division: divisionName(board, c) }));
}

/** A competitor's division's name as the leaderboard names it (null: none). */
export function divisionName(board: ScoreBoard, c: Pick<Competitor, 'divisionId'>): string | null {
  return c.divisionId === null ? null : (board.divisions.get(c.divisionId) ?? null);
}

/** A competitor's credits, oldest first (time, then solve id). */
function creditsInOrder(c: Competitor) {
  return [...c.credits.values()].sort((a, b) =>
    a.time < b.time ? -1 : a.time > b.time ? 1 : a.solveId - b.solveId,
  );
}

/**
 * The top competitors' cumulative points at each credited solve, hint unlock and award, every solve
 * worth its challenge's current value, every unlock its cost and every award its points (as the board counts them, so each series
 * ends at the competitor's score).
 */
export function graphSeries(board: ScoreBoard, top: number, divisionId?: number): GraphSeries[] {
  return rankedOf(board, divisionId)
    .slice(0, top)
    .map((c) => {
      const steps = [
        ...creditsInOrder(c).map((credit) => ({
          time: credit.time,
          delta: board.values.get(credit.challengeId) ?? 0,
        })),
        ...[...c.unlocks.values()].map((u) => ({ time: u.time, delta: -u.cost })),
        ...[...c.awards.values()].map((a) => ({ time: a.time, delta: a.points })),
      ].sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
      let score = 0;
      const points: { time: string; score: number }[] = [];
      for (const step of steps) {
        score += step.delta;
        // Steps at one instant are one point.
        if (points.length > 0 && points[points.length - 1]!.time === step.time)
          points[points.length - 1]!.score = score;
        else points.push({ time: step.time, score });
      }
      return { name: c.name, points };
    });
}

const unixSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** The challenges released at `now` (ISO 8601 UTC): the only ones a public answer may name. */
export function releasedChallengeNames(board: ScoreBoard, now: string): string[] {
  return [...board.challenges.values()]
    .filter((c) => c.releaseAt === null || c.releaseAt <= now)
    .map((c) => c.name)
    .sort(compareCodePoints);
}

/**
 * CTFtime's JSON scoreboard: every released task by name, the standings in leaderboard order (of
 * one division, positions within it, when `divisionId` names one).
 */
export function ctftimeFeed(board: ScoreBoard, tasks: string[], divisionId?: number): CtftimeFeed {
  return {
    tasks,
    standings: rankedOf(board, divisionId).map((c, i) => {
      // Object.fromEntries defines own properties: a task named "__proto__" stays a key.
      const taskStats = Object.fromEntries(
        creditsInOrder(c).map((credit) => [
          board.challenges.get(credit.challengeId)!.name,
          { points: board.values.get(credit.challengeId) ?? 0, time: unixSeconds(credit.time) },
        ]),
      );
      return { pos: i + 1, team: c.name, score: c.points, taskStats, lastAccept: unixSeconds(c.lastSolveAt) };
    }),
  };
}

/**
 * The scoreboard export: the ranked board (or one division's, positions within it) with what each
 * competitor is and how many it solved.
 */
export function scoreboardRows(board: ScoreBoard, divisionId?: number): ScoreboardExportRow[] {
  return rankedOf(board, divisionId).map((c, i) => ({
    pos: i + 1,
    kind: c.kind,
    name: c.name,
    points: c.points,
    solves: c.credits.size,
    last_solve_at: c.lastSolveAt,
  }));
}

/**
 * Every solve that counts (not by an admin), oldest first, with the competitor it was recorded for
 * and what it scores: the challenge's current value when it is the solve its competitor is credited
 * with, 0 otherwise (a teammate's later solve of the same challenge, a removed team's solve). The
 * points of a competitor's rows add up to its score on the board.
 */
export function solveRows(
  board: ScoreBoard,
  solves: readonly {
    id: number;
    user_id: number;
    team_id: number | null;
    challenge_id: number;
    created_at: string;
  }[],
  /** Only the solves that count for this division (their competitor's, issue 19). */
  divisionId?: number,
  /** Awards (issue 31), oldest first: a row each, named 'Award: <reason>', when it counts. */
  awards: readonly (BoardAward & { reason: string })[] = [],
): SolveExportRow[] {
  const rows: SolveExportRow[] = [];
  for (const a of awards) {
    const comp = board.awardCompetitor(a);
    if (comp === null) continue;
    if (divisionId !== undefined && comp.divisionId !== divisionId) continue;
    rows.push({
      time: a.created_at,
      user: a.user_id === null ? '' : (board.userName(a.user_id) ?? ''),
      team: a.team_id === null ? '' : (board.teamName(a.team_id) ?? ''),
      challenge: `Award: ${a.reason}`,
      points: a.points,
    });
  }
  for (const s of solves) {
    const credited = board.creditOf(s);
    if (credited === undefined) continue;
    if (divisionId !== undefined && board.divisionOfSolve(s) !== divisionId) continue;
    rows.push({
      time: s.created_at,
      user: board.userName(s.user_id) ?? '',
      team: s.team_id === null ? '' : (board.teamName(s.team_id) ?? ''),
      challenge: board.challenges.get(s.challenge_id)!.name,
      points: credited ? (board.values.get(s.challenge_id) ?? 0) : 0,
    });
  }
  // Oldest first, awards among the solves (a stable sort keeps each list's own order).
  return awards.length === 0 ? rows : rows.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
}

/**
 * What a solved challenge is worth in any answer that lists solves with points (team info, the
 * admin's teams, the caller's completions): its current value on the board the caller sees, the
 * same number the board adds to the score. `fallback` (the difficulty's points) only for a
 * challenge the board does not know yet (created since it was read).
 */
export function solvedPoints(board: ScoreBoard, challengeId: number, fallback: number): number {
  return board.values.get(challengeId) ?? fallback;
}

/** Completions (`id` the challenge's API id) with each one's points as the board counts them. */
export function withBoardPoints<T extends { id: string; points: number }>(
  board: ScoreBoard,
  completions: readonly T[],
): T[] {
  return completions.map((c) => {
    const points = solvedPoints(board, Number(c.id), c.points);
    return points === c.points ? c : { ...c, points };
  });
}

/**
 * An answer that shows completions at the values of a board (the caller's: live or frozen), with
 * what it was made from: the points it shows, and the board at its version (a board changes in
 * place, its version counting each change).
 */
export interface BoardValuedAnswer {
  answer: CachedJson;
  points: readonly number[];
  board: ScoreBoard | null;
  version: number;
}

/**
 * The answer of these completions at the board's values now (no board: as stored). Kept as it
 * was while the board has not moved; valued again when it has, and serialised again only when one
 * of its points moved (a dynamic challenge's value, the freeze): its bytes and ETag stand
 * otherwise.
 */
export function answerAtBoardValues<T extends { id: string; points: number }>(
  kept: BoardValuedAnswer | null,
  board: ScoreBoard | null,
  completions: readonly T[],
  serialise: (valued: readonly T[]) => CachedJson,
): BoardValuedAnswer {
  const version = board?.version ?? 0;
  if (kept && kept.board === board && kept.version === version) return kept;
  const valued = board && completions.length > 0 ? withBoardPoints(board, completions) : completions;
  const points = valued.map((c) => c.points);
  if (kept && kept.points.length === points.length && kept.points.every((p, i) => p === points[i]))
    return { ...kept, board, version };
  return { answer: serialise(valued), points, board, version };
}
