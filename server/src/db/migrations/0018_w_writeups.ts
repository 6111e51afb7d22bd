import { sql, type Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * Official solutions and writeups (issue 32, docs/decisions/0013-after-the-event.md).
 * - challenge_solutions: a challenge's solution (the Markdown as written, its rendered HTML, its
 *   visibility), gone with the challenge.
 * - challenge_solution_files: stored files (the files table, like challenge_files) the solution lists.
 * - writeups: one per (challenge, competitor): 't<team id>' or 'u<user id>' as hint unlocks name a
 *   competitor, so a replacement is an upsert and two members handing in at once leave one row.
 *   Either a link (url) or a file (name, size, type and the key of its bytes under the upload
 *   folder's writeups/ folder). team_id has no foreign key (it never moves, like solves); the user
 *   who last handed it in is kept while the account exists.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('challenge_solutions')
    .addColumn('challenge_id', 'integer', (c) =>
      c.primaryKey().references('challenges.id').onDelete('cascade'),
    )
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) =>
      c.notNull().check(sql`visibility in ('hidden', 'solved', 'after_end')`),
    )
    .execute();
  await db.schema
    .createTable('challenge_solution_files')
    .addColumn('challenge_id', 'integer', (c) => c.notNull().references('challenges.id').onDelete('cascade'))
    .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('challenge_solution_files_pk', ['challenge_id', 'file_id'])
    .execute();
  await db.schema
    .createIndex('challenge_solution_files_file_idx')
    .on('challenge_solution_files')
    .column('file_id')
    .execute();

  await withId(db, db.schema.createTable('writeups'))
    .addColumn('challenge_id', 'integer', (c) => c.notNull().references('challenges.id').onDelete('cascade'))
    .addColumn('competitor', 'text', (c) => c.notNull())
    .addColumn('team_id', 'integer')
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('url', 'text')
    .addColumn('file_name', 'text')
    .addColumn('file_size', 'integer')
    .addColumn('file_type', 'text')
    .addColumn('storage_key', 'text')
    .addColumn('submitted_at', 'text', (c) => c.notNull())
    .addColumn('reviewed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('writeups_challenge_competitor_unique', ['challenge_id', 'competitor'])
    .addCheckConstraint(
      'writeups_link_or_file',
      sql`(url is not null and storage_key is null) or (url is null and storage_key is not null and file_name is not null and file_size is not null and file_type is not null)`,
    )
    .execute();
  await db.schema.createIndex('writeups_competitor_idx').on('writeups').column('competitor').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('writeups').execute();
  await db.schema.dropTable('challenge_solution_files').execute();
  await db.schema.dropTable('challenge_solutions').execute();
}
