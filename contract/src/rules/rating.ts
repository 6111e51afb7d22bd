import { RATING_MAX, RATING_MIN } from './constants.js';

/** A challenge's rating: the mean of its ratings, 0 when it has none (docs/product.md §12). */
export function meanRating(sum: number, count: number): number {
  return count > 0 ? sum / count : 0;
}

/** Ratings are shown to one decimal out of 5 (docs/product.md §9). */
export function formatRating(rating: number): string {
  return rating.toFixed(1);
}

export function isValidRating(value: number): boolean {
  return Number.isInteger(value) && value >= RATING_MIN && value <= RATING_MAX;
}
