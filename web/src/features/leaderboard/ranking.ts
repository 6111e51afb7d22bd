import type { LeaderboardEntry } from '@ctf/contract';

export interface RankedEntry extends LeaderboardEntry {
  rank: number;
}

/** Ranks follow the server's order and stay with the entry when the list is searched. */
export function rankAndSearch(entries: readonly LeaderboardEntry[], search: string): RankedEntry[] {
  const needle = search.trim().toLowerCase();
  return entries
    .map((e, i) => ({ ...e, rank: i + 1 }))
    .filter((e) => !needle || e.name.toLowerCase().includes(needle));
}

/** Badge colours of the top 3 (SPEC.md §2: gold, silver, then info); everyone else the primary colour. */
export function badgeFor(rank: number): { bg: string; text?: 'dark' } {
  if (rank === 1) return { bg: 'warning', text: 'dark' };
  if (rank === 2) return { bg: 'secondary' };
  if (rank === 3) return { bg: 'info', text: 'dark' };
  return { bg: 'primary' };
}
