import { compareCompetitors } from '@ctf/contract';
import type { Competitor } from './score-board.types.js';

const byRank = (a: Competitor, b: Competitor) => compareCompetitors(a, b);

/**
 * Up to this many changed competitors are moved one by one (each shifting only the rows it passes);
 * more (a dynamic challenge's solvers, whose value moved) are merged back in one pass over the board.
 */
const MOVES_IN_PLACE = 8;

/**
 * The competitors with points above 0, in leaderboard order, kept in order as their scores change.
 * The order is total (points, last solve, name, kind, id: no two competitors compare equal), so a
 * competitor's place is a binary search, and a correct flag moves one row: only the rows between
 * its old and its new place shift. A new player's first solve lands near the bottom, among the
 * rows of its score: a few rows move, not the whole board.
 *
 * NOTE: the rows move in place. A reader takes what it needs synchronously (a page, a place), or
 * copies them to keep them across an await; a competitor's place is found by its sort key, so it
 * is asked only between changes (never after a score changed and before its row was moved).
 */
export class Ranking {
  private rows: Competitor[];

  constructor(competitors: Iterable<Competitor>) {
    this.rows = [...competitors].filter((c) => c.points > 0).sort(byRank);
  }

  /** The ranked rows, best first (live: see the class's note). */
  get all(): readonly Competitor[] {
    return this.rows;
  }

  /** A competitor's 0-based place, or -1 when it is not ranked (no points). */
  placeOf(comp: Competitor): number {
    return placeIn(this.rows, comp);
  }

  /**
   * Changes competitors' scores (`change` totals one again) and puts their rows in their new places.
   */
  update(comps: readonly Competitor[], change: (comp: Competitor) => void): void {
    if (comps.length <= MOVES_IN_PLACE) {
      for (const comp of comps) this.move(comp, change);
      return;
    }
    const moved = new Set(comps);
    for (const comp of comps) change(comp);
    this.rows = insertRanked(
      this.rows.filter((c) => !moved.has(c)),
      comps.filter((c) => c.points > 0),
    );
  }

  /** One competitor's change, its row moved from its old place to its new one: O(log N + distance). */
  private move(comp: Competitor, change: (comp: Competitor) => void): void {
    const rows = this.rows;
    const from = comp.points > 0 ? placeIn(rows, comp) : -1;
    change(comp);
    if (from < 0) {
      if (comp.points > 0) rows.splice(lowerBound(rows, comp, 0, rows.length), 0, comp);
    } else if (comp.points <= 0) {
      rows.splice(from, 1);
    } else if (from > 0 && byRank(comp, rows[from - 1]!) < 0) {
      // Up: the rows from its new place to its old one move down one.
      const to = lowerBound(rows, comp, 0, from);
      for (let i = from; i > to; i--) rows[i] = rows[i - 1]!;
      rows[to] = comp;
    } else if (from < rows.length - 1 && byRank(rows[from + 1]!, comp) < 0) {
      // Down: the rows between its old place and its new one move up one.
      const to = lowerBound(rows, comp, from + 1, rows.length) - 1;
      for (let i = from; i < to; i++) rows[i] = rows[i + 1]!;
      rows[to] = comp;
    }
  }
}

/**
 * Where a competitor stands in rows in leaderboard order, or -1 when it is not among them: a binary
 * search by its sort key (the rows of a division, a subsequence of the board's, are searched alike).
 */
export function placeIn(rows: readonly Competitor[], comp: Competitor): number {
  const at = lowerBound(rows, comp, 0, rows.length);
  return rows[at] === comp ? at : -1;
}

/** The first place in rows[from, to) (in leaderboard order) that does not rank before `row`. */
function lowerBound(rows: readonly Competitor[], row: Competitor, from: number, to: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (byRank(rows[mid]!, row) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The changed rows put in rank order among the kept ones, which are in rank order already: a
 * binary search each and one pass, instead of sorting the whole board again.
 */
function insertRanked(ranked: Competitor[], rows: Competitor[]): Competitor[] {
  const out: Competitor[] = [];
  let from = 0;
  for (const row of [...rows].sort(byRank)) {
    const lo = lowerBound(ranked, row, from, ranked.length);
    for (let i = from; i < lo; i++) out.push(ranked[i]!);
    out.push(row);
    from = lo;
  }
  for (let i = from; i < ranked.length; i++) out.push(ranked[i]!);
  return out;
}
