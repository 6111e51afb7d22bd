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

/** A page of the board as it was built: the rows it showed and their points then. */
interface ShownSlice {
  answer: CachedJson;
  rows: readonly CompetitorRow[];
  points: number[];
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
 * A page (a slice by offset) is served again, same bytes and ETag, in the versions after while its
 * rows stand: the same competitors, in the same places, with the same points. At the start of an
 * event, when every correct flag makes a version, the first page stays while new players land
 * below it, and is serialised and compressed once instead of at every flag.
 *
 * NOTE: `rows` may be the board's own ranking, which moves in place at the next change: a page or
 * a rank is read from it synchronously.
 */
export class BoardPages<R extends CompetitorRow = CompetitorRow> {
  private lowerNames: string[] | null = null;
  /** Competitors' places by id (a team's negated), each looked up once (at most one per competitor). */
  private readonly places = new Map<number, number>();
  private readonly slices = new Map<string, BoardSlice>();
  /** The pages built from this board, by key, shared with its later versions' pages. */
  private readonly shown: Map<string, ShownSlice>;

  constructor(
    private readonly rows: readonly R[],
    private readonly lookups: BoardLookups<R>,
    /** The same board's pages of the version before, whose pages may still stand. */
    previous?: BoardPages<R>,
  ) {
    this.shown = previous?.shown ?? new Map();
  }

  get size(): number {
    return this.rows.length;
  }

  /**
   * The 1-based rank of a user's competitor: their team when they are on one that is on the
   * board, else themselves (a user whose team is gone scores alone); null when off the board.
   */
  rankOf(user: { id: number; team_id: number | null }): number | null {
    if (user.team_id !== null) {
      const team = this.placeOf('team', user.team_id);
      if (team >= 0) return team + 1;
    }
    const own = this.placeOf('user', user.id);
    return own >= 0 ? own + 1 : null;
  }

  /**
   * A competitor's place, looked up once per version: every signed-in reader of a page asks for
   * theirs (a binary search comparing names, ~1.5 µs), and within a version it cannot change.
   */
  private placeOf(kind: CompetitorRow['kind'], id: number): number {
    const key = kind === 'team' ? -id : id;
    let place = this.places.get(key);
    if (place === undefined) {
      place = this.lookups.placeOf(kind, id);
      this.places.set(key, place);
    }
    return place;
  }

  /** Rows [offset, offset + limit) of the board, or of the competitors whose name holds `search`. */
  slice(offset: number, limit: number, search: string): BoardSlice {
    const key = `${offset}:${limit}:${search}`;
    let slice = this.slices.get(key);
    if (!slice) {
      slice = search === '' ? this.plain(key, offset, limit) : this.searched(offset, limit, search);
      // NOTE: bounded, oldest first: the keys are the callers' to choose (any search text).
      if (this.slices.size >= SLICES_PER_VERSION) this.slices.delete(this.slices.keys().next().value!);
      this.slices.set(key, slice);
    }
    return slice;
  }

  private plain(key: string, offset: number, limit: number): BoardSlice {
    const end = Math.min(this.rows.length, offset + limit);
    const kept = this.shown.get(key);
    if (kept && this.stands(kept, offset, end)) return { answer: kept.answer, total: this.rows.length };
    const out: LeaderboardRow[] = [];
    for (let i = offset; i < end; i++) out.push(this.rowAt(i));
    const answer = new CachedJson(JSON.stringify(out));
    const rows = this.rows.slice(offset, end);
    // NOTE: bounded like the slices: the offsets and limits are the callers' to choose.
    if (!kept && this.shown.size >= SLICES_PER_VERSION) this.shown.delete(this.shown.keys().next().value!);
    this.shown.set(key, { answer, rows, points: rows.map((r) => r.points) });
    return { answer, total: this.rows.length };
  }

  /**
   * Whether a page built before shows what rows [offset, end) show now. A competitor's name and
   * division do not change for a board's life (a rename or a move rebuilds the board), so the same
   * competitors in the same places with the same points are the same bytes.
   */
  private stands(kept: ShownSlice, offset: number, end: number): boolean {
    if (kept.rows.length !== end - offset) return false;
    for (let i = 0; i < kept.rows.length; i++) {
      const row = this.rows[offset + i]!;
      if (row !== kept.rows[i] || row.points !== kept.points[i]) return false;
    }
    return true;
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
