import type { Kysely } from 'kysely';

/**
 * The leaderboard and the challenge list aggregate every solve. Indexes that hold every column
 * those aggregates read let the database answer from the index alone, in its order, instead of
 * visiting each solve's row (bench/RESULTS.md has the figures). Each replaces the index it extends.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('solves_team_cover_idx')
    .on('solves')
    .columns(['team_id', 'challenge_id', 'created_at', 'user_id'])
    .execute();
  await db.schema.dropIndex('solves_team_idx').execute();
  await db.schema
    .createIndex('solves_challenge_cover_idx')
    .on('solves')
    .columns(['challenge_id', 'user_id'])
    .execute();
  await db.schema.dropIndex('solves_challenge_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('solves_challenge_idx').on('solves').column('challenge_id').execute();
  await db.schema.dropIndex('solves_challenge_cover_idx').execute();
  await db.schema.createIndex('solves_team_idx').on('solves').columns(['team_id', 'challenge_id']).execute();
  await db.schema.dropIndex('solves_team_cover_idx').execute();
}
