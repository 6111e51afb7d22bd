import type { Executor } from '../../db/schema.js';

/** Records a rating; the (user, challenge) primary key refuses a second one. */
export async function insertRating(
  db: Executor,
  row: { user_id: number; challenge_id: number; rating: number; created_at: string },
): Promise<void> {
  await db.insertInto('ratings').values(row).execute();
}
