import { challengeValue } from '@ctf/contract';
import { placeIn, Ranking } from './ranking.js';
import type {
  BoardAward,
  BoardChallenge,
  BoardSnapshot,
  BoardSolve,
  BoardUnlock,
  BoardUser,
  Competitor,
} from './score-board.types.js';

/**
 * The one scoring function (docs/product.md §15) held in memory: every credited solve, every challenge's
 * solve count and current value, every competitor's points, and the ranked board. Built once from
 * the stored rows (one read of each table) and then kept up to date from the solve feed: a new
 * solve changes its competitor's row and, when it moves a dynamic challenge's value, the rows of
 * that challenge's other solvers, and nothing else (O(what changed), never a rebuild).
 *
 * Awards (issue 31) go through the same path: a new one changes its competitor's row only.
 *
 * The same structure, built with a cutoff, is the public board during a freeze: solves at or after
 * the cutoff do not exist for it (counts, values, scores and times alike).
 */

export type {
  BoardAward,
  BoardChallenge,
  BoardSnapshot,
  BoardSolve,
  BoardUnlock,
  BoardUser,
  Competitor,
  Credit,
} from './score-board.types.js';

type Key = string;
const teamKey = (id: number): Key => `t${id}`;
const userKey = (id: number): Key => `u${id}`;

export class ScoreBoard {
  readonly challenges = new Map<number, BoardChallenge>();
  readonly counts = new Map<number, number>();
  /**
   * Who counted for each challenge. A user solves a challenge once, so this also makes applying a
   * solve twice harmless (a full read that already saw a solve the feed then brings again).
   */
  private readonly solvers = new Map<number, Set<number>>();
  readonly values = new Map<number, number>();
  /**
   * Each counted challenge's first solve id (the lowest: first blood, as the challenge list has
   * it): a frozen board tells which first bloods the public may see.
   */
  readonly firstSolves = new Map<number, number>();
  private readonly users = new Map<number, BoardUser>();
  private readonly teams = new Map<number, string>();
  private readonly teamLeaders = new Map<number, number>();
  /** The divisions by id (issue 19); empty when the site has none. */
  readonly divisions = new Map<number, string>();
  private readonly hiddenTeams = new Set<number>();
  private readonly competitors = new Map<Key, Competitor>();
  /** The competitors credited with each challenge: the rows a change of its value moves. */
  private readonly creditedBy = new Map<number, Set<Key>>();
  /** Competitors with points above 0, in leaderboard order (moved in place at each change). */
  private readonly ranking: Ranking;
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
    for (const t of snapshot.teams) {
      this.teams.set(t.id, t.name);
      if (t.leaderId !== undefined) this.teamLeaders.set(t.id, t.leaderId);
      if (t.hidden) this.hiddenTeams.add(t.id);
    }
    for (const d of snapshot.divisions ?? []) this.divisions.set(d.id, d.name);
    // The snapshot is read with the cutoff already; checked again, so a board never counts past it.
    const before = (r: { created_at: string }) => cutoff === null || r.created_at < cutoff;
    for (const s of snapshot.solves) if (before(s)) this.record(s);
    for (const u of snapshot.unlocks) if (before(u)) this.recordUnlock(u);
    for (const a of snapshot.awards ?? []) if (before(a)) this.recordAward(a);
    for (const c of snapshot.challenges) this.values.set(c.id, this.valueOf(c.id));
    for (const comp of this.competitors.values()) this.total(comp);
    this.ranking = new Ranking(this.competitors.values());
  }

  /**
   * Competitors with points above 0, in leaderboard order. NOTE: the rows move in place at the
   * next change (ranking.ts): read them synchronously, or copy them to keep them across an await.
   */
  get ranked(): readonly Competitor[] {
    return this.ranking.all;
  }

  /**
   * A ranked competitor's 0-based place in `rows` (the board's, or one division's, in leaderboard
   * order as of this version), or -1: a binary search, not a scan.
   */
  placeOf(comp: Competitor, rows: readonly Competitor[] = this.ranking.all): number {
    return placeIn(rows, comp);
  }

  /** The competitor with these ids, when the board has one (ranked or not). */
  competitor(kind: 'team' | 'user', id: number): Competitor | undefined {
    return this.competitors.get(kind === 'team' ? teamKey(id) : userKey(id));
  }

  /** The competitor a user scores for, when they score at all (their team, or themselves). */
  competitorOfUser(userId: number): Competitor | null {
    const user = this.users.get(userId);
    if (!user || user.excluded) return null;
    const key = user.teamId !== null && this.teams.has(user.teamId) ? teamKey(user.teamId) : userKey(userId);
    return this.competitors.get(key) ?? null;
  }

  /**
   * The competitors of one division, in leaderboard order (ranks within it). Division changes and
   * team moves rebuild the board, so a competitor's division is fixed for a board's life.
   */
  rankedIn(divisionId: number): readonly Competitor[] {
    return this.memo(`ranked:d${divisionId}`, () =>
      this.ranking.all.filter((c) => c.divisionId === divisionId),
    );
  }

  /** The division a solve counts for: its competitor's, else (credited to nobody) its solver's. */
  divisionOfSolve(s: { user_id: number; team_id: number | null }): number | null {
    const key = this.competitorKey(s);
    return key !== null ? this.divisionOfKey(key) : (this.users.get(s.user_id)?.divisionId ?? null);
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
    if (s.team_id !== null && this.hiddenTeams.has(s.team_id)) return undefined;
    const key = this.competitorKey(s);
    if (key === null) return false;
    return this.competitors.get(key)?.credits.get(s.challenge_id)?.solveId === s.id;
  }

  /** The competitor an award counts for on this board, or null (an admin's, a hidden team's, after the cutoff). */
  awardCompetitor(a: BoardAward): Competitor | null {
    const key = this.awardKey(a);
    const comp = key === null ? undefined : this.competitors.get(key);
    return comp?.awards.has(a.id) ? comp : null;
  }

  /**
   * Applies solves recorded since the board was read. Answers false when a solve names a user the
   * board does not know (a race with an account created meanwhile): the caller builds it again.
   */
  apply(
    solves: readonly BoardSolve[],
    unlocks: readonly BoardUnlock[] = [],
    awards: readonly BoardAward[] = [],
  ): boolean {
    const touched = new Set<Key>();
    const counted = new Set<number>();
    for (const a of awards) {
      if (this.cutoff !== null && a.created_at >= this.cutoff) continue;
      if (a.user_id !== null && !this.users.has(a.user_id)) return false;
      const key = this.recordAward(a);
      if (key) touched.add(key);
    }
    for (const u of unlocks) {
      if (this.cutoff !== null && u.created_at >= this.cutoff) continue;
      if (!this.users.has(u.user_id)) return false;
      const key = this.recordUnlock(u);
      if (key) touched.add(key);
    }
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
    // Only the moved rows shift (ranking.ts): O(what changed), not a pass over the board.
    this.ranking.update(
      [...touched].map((key) => this.competitors.get(key)!),
      (comp) => this.total(comp),
    );
    this.version += 1;
    return true;
  }

  /** The users among these ids that the board does not know (accounts made after it was read). */
  unknownUsers(ids: Iterable<number>): number[] {
    return [...new Set(ids)].filter((id) => !this.users.has(id));
  }

  /**
   * Adds users made after the board was read (a new player has no team, no solve, no row): they
   * change nothing until their solves are applied. Answers false when one names a team or a
   * division the board does not know (then the caller builds it again).
   */
  learnUsers(users: readonly BoardUser[]): boolean {
    for (const u of users) {
      if (u.teamId !== null && !this.teams.has(u.teamId)) return false;
      if (u.divisionId != null && !this.divisions.has(u.divisionId)) return false;
    }
    for (const u of users) if (!this.users.has(u.id)) this.users.set(u.id, u);
    return true;
  }

  /**
   * A value derived from the board (an answer, a graph), built again only after the board moved
   * (`build` is handed the value of the version before, if any, to take what still holds).
   */
  memo<T>(key: string, build: (previous: T | undefined) => T): T {
    const kept = this.derived.get(key);
    if (kept && kept.version === this.version) return kept.value as T;
    const value = build(kept?.value as T | undefined);
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
    if (s.team_id !== null && this.hiddenTeams.has(s.team_id)) return undefined;
    let solvers = this.solvers.get(s.challenge_id);
    if (!solvers) this.solvers.set(s.challenge_id, (solvers = new Set()));
    if (solvers.has(s.user_id)) return undefined;
    solvers.add(s.user_id);
    this.counts.set(s.challenge_id, solvers.size);
    if (s.id < (this.firstSolves.get(s.challenge_id) ?? Infinity)) this.firstSolves.set(s.challenge_id, s.id);
    const key = this.competitorKey(s);
    if (key === null) return null;
    const comp = this.competitorFor(key);
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

  /** Charges an unlock to its competitor (as a solve would be credited); answers its key. */
  private recordUnlock(u: BoardUnlock): Key | null {
    if (u.team_id !== null && this.hiddenTeams.has(u.team_id)) return null;
    const key = this.competitorKey(u);
    if (key === null) return null;
    const comp = this.competitorFor(key);
    if (comp.unlocks.has(u.id)) return null;
    comp.unlocks.set(u.id, { time: u.created_at, cost: u.cost });
    comp.costs += u.cost;
    return key;
  }

  /** Adds an award to its competitor's points (once per id); answers its key. */
  private recordAward(a: BoardAward): Key | null {
    const key = this.awardKey(a);
    if (key === null) return null;
    const comp = this.competitorFor(key);
    if (comp.awards.has(a.id)) return null;
    comp.awards.set(a.id, { time: a.created_at, points: a.points });
    comp.bonus += a.points;
    return key;
  }

  /**
   * An award's competitor, as a solve recorded with the same ids would have it: a team award's
   * team; a user's award follows the team they were on then, or them while they have none.
   */
  private awardKey(a: BoardAward): Key | null {
    if (this.cutoff !== null && a.created_at >= this.cutoff) return null;
    if (a.team_id !== null && this.hiddenTeams.has(a.team_id)) return null;
    if (a.user_id !== null) return this.competitorKey({ user_id: a.user_id, team_id: a.team_id });
    return a.team_id !== null && this.teams.has(a.team_id) ? teamKey(a.team_id) : null;
  }

  /** The competitor a solve or unlock recorded by this user (with this team) belongs to, if any. */
  private competitorKey(r: { user_id: number; team_id: number | null }): Key | null {
    const user = this.users.get(r.user_id);
    if (!user || user.excluded) return null;
    if (r.team_id !== null) return this.teams.has(r.team_id) ? teamKey(r.team_id) : null;
    // A user's teamless solves count only while they are not on a team (docs/product.md §12).
    if (user.teamId !== null && this.teams.has(user.teamId)) return null;
    return userKey(user.id);
  }

  private competitorFor(key: Key): Competitor {
    let comp = this.competitors.get(key);
    if (!comp) {
      const id = Number(key.slice(1));
      const team = key.startsWith('t');
      comp = {
        kind: team ? 'team' : 'user',
        id,
        name: (team ? this.teams.get(id) : this.users.get(id)?.name) ?? '',
        credits: new Map(),
        costs: 0,
        unlocks: new Map(),
        awards: new Map(),
        bonus: 0,
        points: 0,
        lastSolveAt: '',
        divisionId: this.divisionOfKey(key),
      };
      this.competitors.set(key, comp);
    }
    return comp;
  }

  /** A competitor's division: a team's leader's, a user's own. */
  private divisionOfKey(key: Key): number | null {
    const id = Number(key.slice(1));
    const userId = key.startsWith('t') ? this.teamLeaders.get(id) : id;
    return (userId === undefined ? null : this.users.get(userId)?.divisionId) ?? null;
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
    // An award's time counts as a solve's in the tie-break (issue 31).
    for (const award of comp.awards.values()) if (award.time > last) last = award.time;
    // A competitor without a solve or an award has no points to lose: unlocks alone never list anyone.
    comp.points = comp.credits.size === 0 && comp.awards.size === 0 ? 0 : points + comp.bonus - comp.costs;
    comp.lastSolveAt = last;
  }
}
