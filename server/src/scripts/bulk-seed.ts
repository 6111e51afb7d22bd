import type { Executor } from '../db/schema.js';

/**
 * What the large seeds share (the demo event, scripts/seed-demo-event.ts, and the benchmark's,
 * bench/seed.ts): rows written in bulk through the schema, as an import would.
 */

export async function inChunks<T>(
  rows: T[],
  size: number,
  fn: (chunk: T[]) => Promise<unknown>,
): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await fn(rows.slice(i, i + size));
}

export interface SeededSolve {
  user_id: number;
  challenge_id: number;
  team_id: number | null;
  created_at: string;
}

/** Writes the solves, and a rating of 1 to 5 for about three in ten of them, made when solved. */
export async function insertSolvesWithRatings(
  db: Executor,
  solves: SeededSolve[],
  rand: () => number,
): Promise<void> {
  await inChunks(solves, 500, (chunk) => db.insertInto('solves').values(chunk).execute());
  const ratings = solves
    .filter(() => rand() < 0.3)
    .map((s) => ({
      user_id: s.user_id,
      challenge_id: s.challenge_id,
      rating: 1 + Math.floor(rand() * 5),
      created_at: s.created_at,
    }));
  await inChunks(ratings, 500, (chunk) => db.insertInto('ratings').values(chunk).execute());
}
