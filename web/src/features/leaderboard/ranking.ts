/** Badge colours of the top 3 (docs/product.md §2: gold, silver, then info); everyone else the primary colour. */
export function badgeFor(rank: number): { bg: string; text?: 'dark' } {
  if (rank === 1) return { bg: 'warning', text: 'dark' };
  if (rank === 2) return { bg: 'secondary' };
  if (rank === 3) return { bg: 'info', text: 'dark' };
  return { bg: 'primary' };
}
