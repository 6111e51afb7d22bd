import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * The submission log (issue 18): every flag attempt with its result, the competitor's names at
 * that moment (copied, so the log outlives renames and removals), the client address and, for a
 * wrong attempt only, the submitted text cut to 200 characters. Admins read it newest first, whole
 * or filtered by one of user, team, challenge, result or a time range; each filter has an index
 * that ends in the page order (created_at, id), so a page reads only its own rows at any size
 * (bench/RESULTS.md, issue 18).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('submissions'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('team_id', 'integer')
    .addColumn('team_name', 'text')
    .addColumn('challenge_id', 'integer', (c) => c.notNull())
    .addColumn('challenge_name', 'text', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('submitted', 'text')
    .addColumn('address', 'text', (c) => c.notNull())
    .execute();
  const index = (name: string, columns: string[]) =>
    db.schema.createIndex(name).on('submissions').columns(columns).execute();
  await index('submissions_time_idx', ['created_at', 'id']);
  await index('submissions_user_idx', ['username', 'created_at', 'id']);
  await index('submissions_team_idx', ['team_name', 'created_at', 'id']);
  await index('submissions_challenge_idx', ['challenge_name', 'created_at', 'id']);
  await index('submissions_result_idx', ['result', 'created_at', 'id']);
  // Signals: who used an address (b), and the correct rows of a challenge by time (a).
  await index('submissions_address_idx', ['address', 'created_at']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('submissions').execute();
}
