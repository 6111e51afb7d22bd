import type { Kysely } from 'kysely';

/**
 * Cheating signals (issue 18): a wrong attempt that is another challenge's flag names that
 * challenge, told when the attempt is written (signal c), and is found by its index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('submissions').addColumn('matched_challenge_id', 'integer').execute();
  await db.schema
    .createIndex('submissions_matched_idx')
    .on('submissions')
    .column('matched_challenge_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('submissions_matched_idx').execute();
  await db.schema.alterTable('submissions').dropColumn('matched_challenge_id').execute();
}
