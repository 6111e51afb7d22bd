import { sql, type Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * Challenge authoring (issue 17): several flags per challenge, an optional attempt limit, ordered
 * hints whose unlocks belong to a competitor, a release time and prerequisites.
 * - The single `flag` column becomes one static flag in challenge_flags, then goes: nothing can
 *   read a stale copy.
 * - An unlock is recorded once per (hint, competitor): `competitor` is 't<team id>' or
 *   'u<user id>' for a user with no team, written in the same statement that reads the user's
 *   team, so the unique rule settles parallel unlocks on both databases. Like a solve it keeps its
 *   team id (no foreign key) and goes with its user.
 * - Wrong attempts against a limited challenge are claimed in challenge_attempts with a
 *   conditional upsert (`used < max`), so parallel guesses cannot exceed the limit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('challenge_flags'))
    .addColumn('challenge_id', 'integer', (c) => c.notNull().references('challenges.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('challenge_flags_challenge_idx')
    .on('challenge_flags')
    .column('challenge_id')
    .execute();
  await sql`insert into challenge_flags (challenge_id, position, type, content)
    select id, 0, 'static', flag from challenges`.execute(db);
  await db.schema.alterTable('challenges').dropColumn('flag').execute();

  await db.schema.alterTable('challenges').addColumn('max_attempts', 'integer').execute();
  await db.schema.alterTable('challenges').addColumn('release_at', 'text').execute();

  await db.schema
    .createTable('challenge_attempts')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('challenge_id', 'integer', (c) => c.notNull().references('challenges.id').onDelete('cascade'))
    .addColumn('used', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('challenge_attempts_pk', ['user_id', 'challenge_id'])
    .execute();

  await withId(db, db.schema.createTable('hints'))
    .addColumn('challenge_id', 'integer', (c) => c.notNull().references('challenges.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('cost', 'integer', (c) => c.notNull())
    .addCheckConstraint('hints_cost_range', sql`cost >= 0`)
    .execute();
  await db.schema.createIndex('hints_challenge_idx').on('hints').column('challenge_id').execute();

  await withId(db, db.schema.createTable('hint_unlocks'))
    .addColumn('hint_id', 'integer', (c) => c.notNull().references('hints.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('team_id', 'integer')
    .addColumn('competitor', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('hint_unlocks_competitor_unique', ['hint_id', 'competitor'])
    .execute();
  await db.schema
    .createIndex('hint_unlocks_team_idx')
    .on('hint_unlocks')
    .columns(['team_id', 'hint_id'])
    .execute();
  await db.schema
    .createIndex('hint_unlocks_user_idx')
    .on('hint_unlocks')
    .columns(['user_id', 'hint_id'])
    .execute();

  await db.schema
    .createTable('challenge_prerequisites')
    .addColumn('challenge_id', 'integer', (c) => c.notNull().references('challenges.id').onDelete('cascade'))
    .addColumn('requires_id', 'integer', (c) => c.notNull().references('challenges.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('challenge_prerequisites_pk', ['challenge_id', 'requires_id'])
    .execute();
  await db.schema
    .createIndex('challenge_prerequisites_requires_idx')
    .on('challenge_prerequisites')
    .column('requires_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('challenge_prerequisites').execute();
  await db.schema.dropTable('hint_unlocks').execute();
  await db.schema.dropTable('hints').execute();
  await db.schema.dropTable('challenge_attempts').execute();
  await db.schema.alterTable('challenges').dropColumn('release_at').execute();
  await db.schema.alterTable('challenges').dropColumn('max_attempts').execute();
  await db.schema
    .alterTable('challenges')
    .addColumn('flag', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`update challenges set flag = coalesce((select content from challenge_flags f
    where f.challenge_id = challenges.id order by position limit 1), '')`.execute(db);
  await db.schema.dropTable('challenge_flags').execute();
}
