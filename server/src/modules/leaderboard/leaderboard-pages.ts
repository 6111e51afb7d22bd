import type { LeaderboardRow } from '@ctf/contract';
import { CachedJson } from '../../lib/cached-json.js';

/** A ranked competitor as the pages need it (the score board's rows). */
export interface CompetitorRow {
  kind: 'team' | 'user';
  id: number;
  name: string;
  points: number;
  /** The competitor's division's name (null: none), only while the site has divisions (issue 19). */
  division?: string | null;
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
 * the board's update stays O(changes), and only readers of pages pay, once per version, for the
 * lowercase names (search) and the rank index ("where am I").
 */
export class BoardPages {
  private lowerNames: string[] | null = null;
  private ranks: Map<string, number> | null = null;
  private readonly slices = new Map<string, BoardSlice>();

  constructor(private readonly rows: readonly CompetitorRow[]) {}

  get size(): number {
    return this.rows.length;
  }

  /**
   * The 1-based rank of a user's competitor: their team when they are on one that is on the
   * board, else themselves (a user whose team is gone scores alone); null when off the board.
   */
  rankOf(user: { id: number; team_id: number | null }): number | null {
    if (!this.ranks) {
      this.ranks = new Map();
      for (let i = 0; i < this.rows.length; i++) {
        const r = this.rows[i]!;
        this.ranks.set(`${r.kind}:${r.id}`, i + 1);
      }
    }
    if (user.team_id !== null) {
      const team = this.ranks.get(`team:${user.team_id}`);
      if (team !== undefined) return team;
    }
    return this.ranks.get(`user:${user.id}`) ?? null;
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
    for (let i = offset; i < end; i++) out.push(rowAt(this.rows, i));
    return { answer: new CachedJson(JSON.stringify(out)), total: this.rows.length };
  }

  private searched(offset: number, limit: number, search: string): BoardSlice {
    const needle = search.toLowerCase();
    this.lowerNames ??= this.rows.map((r) => r.name.toLowerCase());
    const out: LeaderboardRow[] = [];
    let matches = 0;
    for (let i = 0; i < this.lowerNames.length; i++) {
      if (!this.lowerNames[i]!.includes(needle)) continue;
      if (matches >= offset && out.length < limit) out.push(rowAt(this.rows, i));
      matches++;
    }
    return { answer: new CachedJson(JSON.stringify(out)), total: matches };
  }
}

function rowAt(rows: readonly CompetitorRow[], i: number): LeaderboardRow {
  const r = rows[i]!;
  return r.division === undefined
    ? { name: r.name, points: r.points, rank: i + 1 }
    : { name: r.name, points: r.points, division: r.division, rank: i + 1 };
}
