import type { Kysely } from 'kysely';

/**
 * A Discord message remembers what it is about (`announcement:<id>`), so deleting an announcement
 * before its message went out withdraws the message in the same transaction (issue 29).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_outbox').addColumn('ref', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_outbox').dropColumn('ref').execute();
}
