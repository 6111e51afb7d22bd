import type { Kysely } from 'kysely';

/**
 * A first blood scored while the scoreboard is frozen is not announced (live event, Discord) until
 * the public board includes it (issue 16: the freeze hides first bloods too). `held` is 1 for such
 * a notice; the freeze's lift (or a move past its solve) clears it and announces it, exactly once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('first_blood_notices')
    .addColumn('held', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('first_blood_notices').dropColumn('held').execute();
}
