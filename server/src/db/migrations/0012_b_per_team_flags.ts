import type { Kysely } from 'kysely';

/**
 * Per-team flags (issue 18): a challenge may take, instead of one flag for all, the author's base
 * flag with a suffix derived per competitor (HMAC, never stored); `per_team_on_page` offers the
 * competitor its own flag on the challenge page. A wrong attempt that is another competitor's
 * per-team flag names that competitor (signal c), with the challenge in matched_challenge_id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('challenges')
    .addColumn('per_team', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('challenges')
    .addColumn('per_team_on_page', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('submissions').addColumn('matched_competitor', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('submissions').dropColumn('matched_competitor').execute();
  await db.schema.alterTable('challenges').dropColumn('per_team_on_page').execute();
  await db.schema.alterTable('challenges').dropColumn('per_team').execute();
}
