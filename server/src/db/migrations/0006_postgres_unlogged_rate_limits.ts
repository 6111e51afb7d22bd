import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.js';

/**
 * PostgreSQL only: the wrong-flag counters (rate_limits) skip the write-ahead log. Every flag
 * attempt writes one when no Redis is configured; logged, each of those commits waited for a WAL
 * flush. The counters live a minute: if the database server itself crashes, PostgreSQL empties
 * the table and the worst outcome is a fresh minute of guesses, which is what Redis restarting
 * gives too. Solves, sessions and everything else stay logged and durable.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table rate_limits set unlogged`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table rate_limits set logged`.execute(db);
}
