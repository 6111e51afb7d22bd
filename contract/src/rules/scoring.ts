/**
 * The scoring model of docs/product.md §12 as a pure reference: the server computes the same ranking with
 * set-based SQL, and its tests compare the two on generated events.
 *
 * - A solve records (user, challenge, the user's team at that moment or null, time) and never moves.
 * - A competitor is a team, or a user with no team. A team scores each challenge once, from the
 *   solves recorded with its id, credited to the member who solved it first while on the team.
 *   A user with no team scores the solves they made with no team.
 * - Admins' solves count nowhere and admins are not competitors. A solve whose team no longer
 *   exists counts for nobody; a removed user's solves are gone.
 * - A hint unlock (issue 17) belongs to a competitor like a solve (the user's team at that moment,
 *   or the user with no team) and never moves; its cost is taken from that competitor's points.
 * - An award (issue 31) belongs to a competitor like a solve: one given to a team is the team's;
 *   one given to a user is recorded with the user's team at that moment (or none) and never moves.
 *   Its points (negative for a penalty) join that competitor's, and its time counts as a solve's
 *   in the tie-break. An admin's awards count nowhere.
 * - Only points above 0 are listed: points descending, then the competitor whose last scoring
 *   solve came first, then the name.
 * - A challenge is worth its current value (dynamic-scoring.ts) for every solver: its difficulty's
 *   points, or its dynamic formula applied to its solve count (solves by users who count).
 * - With a cutoff (a scoreboard freeze), only the solves before it exist.
 */
import { challengeValue, type ChallengeScoring } from './dynamic-scoring.js';

export interface ScoringSolve {
  userId: number;
  challengeId: number;
  teamId: number | null;
  /** ISO 8601 UTC. */
  time: string;
}

export interface ScoringUser {
  id: number;
  name: string;
  isAdmin: boolean;
  teamId: number | null;
}

export interface ScoringTeam {
  id: number;
  name: string;
}

export interface ScoringInput {
  solves: readonly ScoringSolve[];
  users: readonly ScoringUser[];
  teams: readonly ScoringTeam[];
  /** Points by challenge id (from its difficulty); a solve of a missing challenge counts nothing. */
  points: ReadonlyMap<number, number>;
  /** Hint unlocks with their cost; absent means none. */
  unlocks?: readonly ScoringUnlock[];
  /** Scoring by challenge id; a challenge missing here is static. */
  scorings?: ReadonlyMap<number, ChallengeScoring>;
  /** ISO 8601 UTC: solves at or after it are left out (the public view of a frozen board). */
  cutoff?: string | null;
  /** Awards (issue 31); absent means none. */
  awards?: readonly ScoringAward[];
}

/** Points an admin gave: to a team (userId null), or to a user with the team they were on, or none. */
export interface ScoringAward {
  userId: number | null;
  teamId: number | null;
  points: number;
  /** ISO 8601 UTC; with a cutoff, awards at or after it are left out. */
  time: string;
}

/** The awards that count for a competitor (its points and times). */
export function awardsOf(
  input: ScoringInput,
  competitor: { kind: 'team' | 'user'; id: number },
): ScoringAward[] {
  const users = new Map(input.users.map((u) => [u.id, u]));
  const c = cutoff(input);
  return (input.awards ?? []).filter((a) => {
    if (c !== null && a.time >= c) return false;
    if (a.userId !== null) {
      const user = users.get(a.userId);
      if (!user || user.isAdmin) return false;
    }
    return competitor.kind === 'team'
      ? a.teamId === competitor.id
      : a.teamId === null && a.userId === competitor.id;
  });
}

/** Solves of each challenge by users who count (not admins), before the cutoff. */
export function solveCountsOf(input: ScoringInput): Map<number, number> {
  const users = new Map(input.users.map((u) => [u.id, u]));
  const counts = new Map<number, number>([...input.points.keys()].map((id) => [id, 0]));
  for (const s of visibleSolves(input)) {
    const user = users.get(s.userId);
    if (!user || user.isAdmin || !counts.has(s.challengeId)) continue;
    counts.set(s.challengeId, counts.get(s.challengeId)! + 1);
  }
  return counts;
}

/** Every challenge's current value by id. */
export function challengeValuesOf(input: ScoringInput): Map<number, number> {
  const counts = solveCountsOf(input);
  const values = new Map<number, number>();
  for (const [id, points] of input.points) {
    values.set(
      id,
      challengeValue(input.scorings?.get(id) ?? { type: 'static' }, points, counts.get(id) ?? 0),
    );
  }
  return values;
}

function visibleSolves(input: ScoringInput): readonly ScoringSolve[] {
  const cutoff = input.cutoff;
  return cutoff ? input.solves.filter((s) => s.time < cutoff) : input.solves;
}

/** The same event with every challenge worth its current value and only the solves before the cutoff. */
function valued(input: ScoringInput): ScoringInput {
  return {
    ...input,
    solves: visibleSolves(input),
    points: challengeValuesOf(input),
    unlocks: cutoff(input)
      ? (input.unlocks ?? []).filter((u) => u.time === undefined || u.time < cutoff(input)!)
      : input.unlocks,
    scorings: undefined,
    cutoff: null,
  };
}

const cutoff = (input: ScoringInput) => input.cutoff ?? null;

/** A hint unlocked by a user for the team they were on (or none), and what it costs. */
export interface ScoringUnlock {
  userId: number;
  teamId: number | null;
  cost: number;
  /** ISO 8601 UTC; with a cutoff, unlocks at or after it are left out. */
  time?: string;
}

/** What a competitor's unlocks cost: admins' unlocks and removed users' count nowhere. */
export function unlockCosts(input: ScoringInput, competitor: { kind: 'team' | 'user'; id: number }): number {
  const users = new Map(input.users.map((u) => [u.id, u]));
  let cost = 0;
  for (const u of input.unlocks ?? []) {
    const user = users.get(u.userId);
    if (!user || user.isAdmin) continue;
    if (
      competitor.kind === 'team'
        ? u.teamId === competitor.id
        : u.teamId === null && u.userId === competitor.id
    )
      cost += u.cost;
  }
  return cost;
}

/** One challenge credited to a team: the first solve recorded with the team's id. */
export interface TeamCredit {
  challengeId: number;
  userId: number;
  points: number;
  time: string;
}

export interface RankedCompetitor {
  kind: 'team' | 'user';
  id: number;
  name: string;
  points: number;
  /** When the last scoring solve happened (for a team: the latest of its first solves). */
  lastSolveAt: string;
}

/** Orders strings by code point, as SQLite's BINARY and PostgreSQL's "C" collation do. */
export function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const cx = x.value.codePointAt(0)!;
    const cy = y.value.codePointAt(0)!;
    if (cx !== cy) return cx - cy;
  }
}

/**
 * Leaderboard order: points descending, earlier last scoring solve first, then name; a team and a
 * user of the same name and score are told apart by kind (team first), then id.
 */
export function compareCompetitors(a: RankedCompetitor, b: RankedCompetitor): number {
  if (a.points !== b.points) return b.points - a.points;
  if (a.lastSolveAt !== b.lastSolveAt) return a.lastSolveAt < b.lastSolveAt ? -1 : 1;
  const byName = compareCodePoints(a.name, b.name);
  if (byName !== 0) return byName;
  if (a.kind !== b.kind) return a.kind === 'team' ? -1 : 1;
  return a.id - b.id;
}

function earlier(a: ScoringSolve, b: ScoringSolve): boolean {
  return a.time < b.time;
}

/** The challenges a team scores: per challenge, the first solve recorded with its id by a non-admin. */
export function teamCredits(event: ScoringInput, teamId: number): TeamCredit[] {
  const input = valued(event);
  const users = new Map(input.users.map((u) => [u.id, u]));
  const first = new Map<number, ScoringSolve>();
  for (const s of input.solves) {
    if (s.teamId !== teamId) continue;
    const user = users.get(s.userId);
    if (!user || user.isAdmin || !input.points.has(s.challengeId)) continue;
    const seen = first.get(s.challengeId);
    if (!seen || earlier(s, seen)) first.set(s.challengeId, s);
  }
  return [...first.values()]
    .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0))
    .map((s) => ({
      challengeId: s.challengeId,
      userId: s.userId,
      points: input.points.get(s.challengeId)!,
      time: s.time,
    }));
}

/** Every competitor with points above 0, in leaderboard order. */
export function rankCompetitors(event: ScoringInput): RankedCompetitor[] {
  const input = valued(event);
  const teamIds = new Set(input.teams.map((t) => t.id));
  const ranked: RankedCompetitor[] = [];

  for (const team of input.teams) {
    const credits = teamCredits(input, team.id);
    const awards = awardsOf(event, { kind: 'team', id: team.id });
    const points =
      credits.reduce((sum, c) => sum + c.points, 0) +
      awards.reduce((sum, a) => sum + a.points, 0) -
      unlockCosts(input, { kind: 'team', id: team.id });
    if (points <= 0) continue;
    const lastSolveAt = [...credits, ...awards].reduce((last, c) => (c.time > last ? c.time : last), '');
    ranked.push({ kind: 'team', id: team.id, name: team.name, points, lastSolveAt });
  }

  for (const user of input.users) {
    // A user whose team id names no team is a user with no team.
    if (user.isAdmin || (user.teamId !== null && teamIds.has(user.teamId))) continue;
    let points = 0;
    let lastSolveAt = '';
    for (const s of input.solves) {
      if (s.userId !== user.id || s.teamId !== null) continue;
      const p = input.points.get(s.challengeId);
      if (p === undefined) continue;
      points += p;
      if (s.time > lastSolveAt) lastSolveAt = s.time;
    }
    for (const a of awardsOf(event, { kind: 'user', id: user.id })) {
      points += a.points;
      if (a.time > lastSolveAt) lastSolveAt = a.time;
    }
    // A competitor without a solve or award has no points to lose: unlocks alone never list anyone.
    if (lastSolveAt === '') continue;
    points -= unlockCosts(input, { kind: 'user', id: user.id });
    if (points > 0) ranked.push({ kind: 'user', id: user.id, name: user.name, points, lastSolveAt });
  }

  return ranked.sort(compareCompetitors);
}

/** The public leaderboard (docs/product.md §3): name and points. */
export function leaderboardOf(input: ScoringInput): { name: string; points: number }[] {
  return rankCompetitors(input).map(({ name, points }) => ({ name, points }));
}
