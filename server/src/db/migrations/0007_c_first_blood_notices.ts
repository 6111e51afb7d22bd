import { type Kysely } from 'kysely';

/**
 * One row per challenge whose first blood was announced (live event, Discord). Inserted with the
 * solve, in its transaction, `on conflict do nothing`: the database lets exactly one solve claim
 * it, however many processes record solves at once. What the site shows as first blood is read
 * from the solves themselves (a removed solver's successor takes over); this row only keeps the
 * announcement from being made twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('first_blood_notices')
    .addColumn('challenge_id', 'integer', (c) => c.primaryKey())
    .addColumn('solve_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('first_blood_notices').execute();
}
