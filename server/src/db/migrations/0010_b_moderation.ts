import type { Kysely } from 'kysely';

/**
 * Hide and ban (issue 18): flags on users and teams with the reason an admin gave, reversible.
 * Hidden users and teams are left out of every public view by the same filter that leaves out
 * admins (db/counted.ts); a banned user, or a member of a banned team, cannot log in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['users', 'teams']) {
    await db.schema
      .alterTable(table)
      .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable(table)
      .addColumn('banned', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable(table).addColumn('moderation_reason', 'text').execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['users', 'teams']) {
    for (const column of ['hidden', 'banned', 'moderation_reason'])
      await db.schema.alterTable(table).dropColumn(column).execute();
  }
}
