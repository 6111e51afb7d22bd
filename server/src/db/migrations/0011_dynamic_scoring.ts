import type { Kysely } from 'kysely';

/**
 * Dynamic scoring per challenge (issue 16): 'static' (points from difficulty, every existing
 * challenge) or 'dynamic' with CTFd's parameters. Values are derived from solve rows when scores
 * are built, never stored per solve. The freeze time lives in the settings table (no column).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('challenges')
    .addColumn('scoring_type', 'text', (c) => c.notNull().defaultTo('static'))
    .execute();
  await db.schema.alterTable('challenges').addColumn('scoring_function', 'text').execute();
  await db.schema.alterTable('challenges').addColumn('scoring_initial', 'integer').execute();
  await db.schema.alterTable('challenges').addColumn('scoring_minimum', 'integer').execute();
  await db.schema.alterTable('challenges').addColumn('scoring_decay', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of [
    'scoring_decay',
    'scoring_minimum',
    'scoring_initial',
    'scoring_function',
    'scoring_type',
  ])
    await db.schema.alterTable('challenges').dropColumn(column).execute();
}
