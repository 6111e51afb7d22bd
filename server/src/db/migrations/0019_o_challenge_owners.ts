import type { Kysely } from 'kysely';

/**
 * Least privilege for staff (docs/decisions/0014-least-privilege.md).
 * - challenge_owners: who may read and change a challenge's flags, hints, solution, files and
 *   instance besides admins. Gone with the challenge or the user. Challenges that exist before
 *   this migration get no owner: only admins reach their answers until an admin names owners.
 * - users.competing: a monitor or author who counts in public like a participant (set by an
 *   admin). Staff are left out of every public list by default, as admins always were.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('challenge_owners')
    .addColumn('challenge_id', 'integer', (c) => c.notNull().references('challenges.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('challenge_owners_pk', ['challenge_id', 'user_id'])
    .execute();
  await db.schema.createIndex('challenge_owners_user_idx').on('challenge_owners').column('user_id').execute();
  await db.schema
    .alterTable('users')
    .addColumn('competing', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('competing').execute();
  await db.schema.dropTable('challenge_owners').execute();
}
