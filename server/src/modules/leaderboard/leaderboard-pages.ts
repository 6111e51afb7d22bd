import type { LeaderboardRow } from '@ctf/contract';
import { CachedJson } from '../../lib/cached-json.js';

/** A ranked competitor as the pages need it (the score board's rows). */
export interface CompetitorRow {
  kind: 'team' | 'user';
  id: number;
  name: string;
  points: number;
}

/** What the pages ask of the board they show, beside its rows. */
export interface BoardLookups<R extends CompetitorRow = CompetitorRow> {
  /** A competitor's 0-based place in the rows, or -1 when it is not among them. */
  placeOf(kind: CompetitorRow['kind'], id: number): number;
  /** A row's division's name (null: none), only while the site has divisions (issue 19). */
  divisionOf?: (row: R) => string | null;
}

/** How many distinct slices one board version keeps (search texts are the caller's to choose). */
export const SLICES_PER_VERSION = 512;

/** One page of the board, serialised once for this board version. */
export interface BoardSlice {
  answer: CachedJson;
  /** How many competitors the page is a slice of: the whole board, or those the search matched. */
  total: number;
}

/**
 * The pages of one board version (issue 20), of the whole board or of one division's competitors
 * (issue 19: each division has its own BoardPages, so its slice cache, ranks and totals are its
 * own; the division is part of the key that finds the pages). Everything here is derived from the ranked rows on
 * first demand and dropped with the version, so a correct flag costs nothing more than before:
 * the board's update stays O(changes), and readers of pages pay only for what they read: the
 * slices asked for, once per version, a caller's rank by a binary search on the ranking ("where
 * am I"), and, for a search, the lowercase names once per version.
 *
 * NOTE: `rows` may be the board's own ranking, which moves in place at the next change: a page or
 * a rank is read from it synchronously, and each slice is kept only for this version.
 */
export class BoardPages<R extends CompetitorRow = CompetitorRow> {
  private lowerNames: string[] | null = null;
  private readonly slices = new Map<string, BoardSlice>();

  constructor(
    private readonly rows: readonly R[],
    private readonly lookups: BoardLookups<R>,
  ) {}

  get size(): number {
    return this.rows.length;
  }

  /**
   * The 1-based rank of a user's competitor: their team when they are on one that is on the
   * board, else themselves (a user whose team is gone scores alone); null when off the board.
   */
  rankOf(user: { id: number; team_id: number | null }): number | null {
    if (user.team_id !== null) {
      const team = this.lookups.placeOf('team', user.team_id);
      if (team >= 0) return team + 1;
    }
    const own = this.lookups.placeOf('user', user.id);
    return own >= 0 ? own + 1 : null;
  }

  /** Rows [offset, offset + limit) of the board, or of the competitors whose name holds `search`. */
  slice(offset: number, limit: number, search: string): BoardSlice {
    const key = `${offset}:${limit}:${search}`;
    let slice = this.slices.get(key);
    if (!slice) {
      slice = search === '' ? this.plain(offset, limit) : this.searched(offset, limit, search);
      // NOTE: bounded, oldest first: the keys are the callers' to choose (any search text).
      if (this.slices.size >= SLICES_PER_VERSION) this.slices.delete(this.slices.keys().next().value!);
      this.slices.set(key, slice);
    }
    return slice;
  }

  private plain(offset: number, limit: number): BoardSlice {
    const out: LeaderboardRow[] = [];
    const end = Math.min(this.rows.length, offset + limit);
    for (let i = offset; i < end; i++) out.push(this.rowAt(i));
    return { answer: new CachedJson(JSON.stringify(out)), total: this.rows.length };
  }

  private searched(offset: number, limit: number, search: string): BoardSlice {
    const needle = search.toLowerCase();
    this.lowerNames ??= this.rows.map((r) => r.name.toLowerCase());
    const out: LeaderboardRow[] = [];
    let matches = 0;
    for (let i = 0; i < this.lowerNames.length; i++) {
      if (!this.lowerNames[i]!.includes(needle)) continue;
      if (matches >= offset && out.length < limit) out.push(this.rowAt(i));
      matches++;
    }
    return { answer: new CachedJson(JSON.stringify(out)), total: matches };
  }

  private rowAt(i: number): LeaderboardRow {
    const r = this.rows[i]!;
    const divisionOf = this.lookups.divisionOf;
    return divisionOf === undefined
      ? { name: r.name, points: r.points, rank: i + 1 }
      : { name: r.name, points: r.points, division: divisionOf(r), rank: i + 1 };
  }
}
