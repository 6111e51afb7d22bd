import { sql, type Kysely } from 'kysely';

/**
 * The submission log's writes cost what its indexes cost: every wrong flag adds a row to each.
 * Two of them paid for nothing (measured on 200,000 rows, bench/NOTES.md, the fourth round):
 * - `submissions_address_idx` (address, created_at): only signal (b) reads by address, and it
 *   groups the whole log, which a table scan does in half the time of a walk of this index;
 * - `submissions_matched_idx` indexed every row's NULL: the signal reads only the rows that match
 *   another flag, so the index now holds those alone (partial) and is read at last (12 -> 0.1 ms).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('submissions_address_idx').execute();
  await db.schema.dropIndex('submissions_matched_idx').execute();
  await db.schema
    .createIndex('submissions_matched_idx')
    .on('submissions')
    .column('matched_challenge_id')
    .where(sql.ref('matched_challenge_id'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('submissions_matched_idx').execute();
  await db.schema
    .createIndex('submissions_matched_idx')
    .on('submissions')
    .column('matched_challenge_id')
    .execute();
  await db.schema
    .createIndex('submissions_address_idx')
    .on('submissions')
    .columns(['address', 'created_at'])
    .execute();
}
