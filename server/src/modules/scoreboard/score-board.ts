import { challengeValue, compareCompetitors, type ChallengeScoring } from '@ctf/contract';

/**
 * The one scoring function (DESIGN.md §8) held in memory: every credited solve, every challenge's
 * solve count and current value, every competitor's points, and the ranked board. Built once from
 * the stored rows (one read of each table) and then kept up to date from the solve feed: a new
 * solve changes its competitor's row and, when it moves a dynamic challenge's value, the rows of
 * that challenge's other solvers, and nothing else (O(what changed), never a rebuild).
 *
 * The same structure, built with a cutoff, is the public board during a freeze: solves at or after
 * the cutoff do not exist for it (counts, values, scores and times alike).
 */

export interface BoardChallenge {
  id: number;
  name: string;
  /** The difficulty's points (what a static challenge is worth). */
  points: number;
  scoring: ChallengeScoring;
}

export interface BoardUser {
  id: number;
  name: string;
  /** Left out of every count and score (admins; hidden users share this filter). */
  excluded: boolean;
  teamId: number | null;
}

export interface BoardSolve {
  id: number;
  user_id: number;
  team_id: number | null;
  challenge_id: number;
  /** ISO 8601 UTC. */
  created_at: string;
}

/** What a competitor scores a challenge for: the first solve credited to it. */
export interface Credit {
  challengeId: number;
  userId: number;
  time: string;
  solveId: number;
}

export interface Competitor {
  kind: 'team' | 'user';
  id: number;
  name: string;
  credits: Map<number, Credit>;
  points: number;
  lastSolveAt: string;
}

export interface BoardSnapshot {
  challenges: readonly BoardChallenge[];
  users: readonly BoardUser[];
  teams: readonly { id: number; name: string }[];
  /** Every solve (before the cutoff, when there is one), in id order. */
  solves: readonly BoardSolve[];
}

type Key = string;
const teamKey = (id: number): Key => `t${id}`;
const userKey = (id: number): Key => `u${id}`;

const byRank = (a: Competitor, b: Competitor) => compareCompetitors(a, b);

export class ScoreBoard {
  readonly challenges = new Map<number, BoardChallenge>();
  readonly counts = new Map<number, number>();
  /**
   * Who counted for each challenge. A user solves a challenge once, so this also makes applying a
   * solve twice harmless (a full read that already saw a solve the feed then brings again).
   */
  private readonly solvers = new Map<number, Set<number>>();
  readonly values = new Map<number, number>();
  private readonly users = new Map<number, BoardUser>();
  private readonly teams = new Map<number, string>();
  private readonly competitors = new Map<Key, Competitor>();
  /** The competitors credited with each challenge: the rows a change of its value moves. */
  private readonly creditedBy = new Map<number, Set<Key>>();
  /** Competitors with points above 0, in leaderboard order. */
  private rankedRows: Competitor[] = [];
  /** Moves at every change, so answers derived from the board are rebuilt only when it moved. */
  version = 0;
  private readonly derived = new Map<string, { version: number; value: unknown }>();

  constructor(
    snapshot: BoardSnapshot,
    /** ISO 8601 UTC: solves at or after it are ignored (a frozen board); null for the live one. */
    readonly cutoff: string | null,
  ) {
    for (const c of snapshot.challenges) {
      this.challenges.set(c.id, c);
      this.counts.set(c.id, 0);
    }
    for (const u of snapshot.users) this.users.set(u.id, u);
    for (const t of snapshot.teams) this.teams.set(t.id, t.name);
    for (const s of snapshot.solves) this.record(s);
    for (const c of snapshot.challenges) this.values.set(c.id, this.valueOf(c.id));
    for (const comp of this.competitors.values()) this.total(comp);
    this.rankedRows = [...this.competitors.values()].filter((c) => c.points > 0).sort(byRank);
  }

  /** Competitors with points above 0, in leaderboard order. */
  get ranked(): readonly Competitor[] {
    return this.rankedRows;
  }

  /** The competitor a user scores for, when they score at all (their team, or themselves). */
  competitorOfUser(userId: number): Competitor | null {
    const user = this.users.get(userId);
    if (!user || user.excluded) return null;
    const key = user.teamId !== null && this.teams.has(user.teamId) ? teamKey(user.teamId) : userKey(userId);
    return this.competitors.get(key) ?? null;
  }

  userName(id: number): string | undefined {
    return this.users.get(id)?.name;
  }

  teamName(id: number): string | undefined {
    return this.teams.get(id);
  }

  /**
   * Whether a stored solve is the one its competitor is credited with (true), counts but scores
   * nothing (false: a later solve of the same challenge, a removed team's), or does not count at
   * all (undefined: an admin's, one after the cutoff, an unknown challenge).
   */
  creditOf(s: BoardSolve): boolean | undefined {
    const user = this.users.get(s.user_id);
    if (!user || user.excluded || !this.challenges.has(s.challenge_id)) return undefined;
    if (this.cutoff !== null && s.created_at >= this.cutoff) return undefined;
    const key =
      s.team_id !== null
        ? this.teams.has(s.team_id)
          ? teamKey(s.team_id)
          : null
        : user.teamId !== null && this.teams.has(user.teamId)
          ? null
          : userKey(user.id);
    if (key === null) return false;
    return this.competitors.get(key)?.credits.get(s.challenge_id)?.solveId === s.id;
  }

  /**
   * Applies solves recorded since the board was read. Answers false when a solve names a user the
   * board does not know (a race with an account created meanwhile): the caller builds it again.
   */
  apply(solves: readonly BoardSolve[]): boolean {
    const touched = new Set<Key>();
    const counted = new Set<number>();
    for (const s of solves) {
      if (this.cutoff !== null && s.created_at >= this.cutoff) continue;
      if (!this.challenges.has(s.challenge_id)) continue;
      if (!this.users.has(s.user_id)) return false;
      const key = this.record(s);
      if (key === undefined) continue;
      counted.add(s.challenge_id);
      if (key !== null) touched.add(key);
    }
    for (const id of counted) {
      const value = this.valueOf(id);
      if (value === this.values.get(id)) continue;
      this.values.set(id, value);
      for (const key of this.creditedBy.get(id) ?? []) touched.add(key);
    }
    if (touched.size === 0 && counted.size === 0) return true;
    const moved: Competitor[] = [];
    for (const key of touched) {
      const comp = this.competitors.get(key)!;
      this.total(comp);
      moved.push(comp);
    }
    const kept = this.rankedRows.filter((c) => !touched.has(this.keyOf(c)));
    this.rankedRows = insertRanked(
      kept,
      moved.filter((c) => c.points > 0),
    );
    this.version += 1;
    return true;
  }

  /** A value derived from the board (an answer, a graph), built again only after the board moved. */
  memo<T>(key: string, build: () => T): T {
    const kept = this.derived.get(key);
    if (kept && kept.version === this.version) return kept.value as T;
    const value = build();
    this.derived.set(key, { version: this.version, value });
    return value;
  }

  /**
   * Counts a solve and credits it. Answers the competitor's key (null: it counts for nobody's score,
   * as a solve recorded with a removed team), or undefined when it does not count at all.
   */
  private record(s: BoardSolve): Key | null | undefined {
    const user = this.users.get(s.user_id);
    if (!user || user.excluded || !this.challenges.has(s.challenge_id)) return undefined;
    let solvers = this.solvers.get(s.challenge_id);
    if (!solvers) this.solvers.set(s.challenge_id, (solvers = new Set()));
    if (solvers.has(s.user_id)) return undefined;
    solvers.add(s.user_id);
    this.counts.set(s.challenge_id, solvers.size);
    let key: Key;
    let kind: 'team' | 'user';
    let id: number;
    let name: string;
    if (s.team_id !== null) {
      const teamName = this.teams.get(s.team_id);
      if (teamName === undefined) return null;
      key = teamKey(s.team_id);
      kind = 'team';
      id = s.team_id;
      name = teamName;
    } else {
      // A user's teamless solves count only while they are not on a team (DESIGN.md §4).
      if (user.teamId !== null && this.teams.has(user.teamId)) return null;
      key = userKey(user.id);
      kind = 'user';
      id = user.id;
      name = user.name;
    }
    let comp = this.competitors.get(key);
    if (!comp) {
      comp = { kind, id, name, credits: new Map(), points: 0, lastSolveAt: '' };
      this.competitors.set(key, comp);
    }
    const credit = comp.credits.get(s.challenge_id);
    if (!credit || s.created_at < credit.time || (s.created_at === credit.time && s.id < credit.solveId)) {
      comp.credits.set(s.challenge_id, {
        challengeId: s.challenge_id,
        userId: s.user_id,
        time: s.created_at,
        solveId: s.id,
      });
    }
    let by = this.creditedBy.get(s.challenge_id);
    if (!by) this.creditedBy.set(s.challenge_id, (by = new Set()));
    by.add(key);
    return key;
  }

  private valueOf(challengeId: number): number {
    const c = this.challenges.get(challengeId)!;
    return challengeValue(c.scoring, c.points, this.counts.get(challengeId) ?? 0);
  }

  private total(comp: Competitor): void {
    let points = 0;
    let last = '';
    for (const credit of comp.credits.values()) {
      points += this.values.get(credit.challengeId) ?? 0;
      if (credit.time > last) last = credit.time;
    }
    comp.points = points;
    comp.lastSolveAt = last;
  }

  private keyOf(c: Competitor): Key {
    return c.kind === 'team' ? teamKey(c.id) : userKey(c.id);
  }
}

/**
 * The few changed rows put in rank order among the kept ones, which are in rank order already:
 * a binary search each instead of sorting thousands of rows again at every correct flag.
 */
function insertRanked(ranked: Competitor[], rows: Competitor[]): Competitor[] {
  const out: Competitor[] = [];
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
