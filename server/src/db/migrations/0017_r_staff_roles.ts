import { sql, type Kysely } from 'kysely';

/**
 * Staff roles (issue 31): users.role is 'player', 'monitor', 'author' or 'admin'. Every admin
 * (is_admin = 1, including those the ADMINS variable made) becomes role 'admin'. is_admin stays,
 * written with the role in the same statement (is_admin = 1 exactly when role = 'admin'): the
 * counting filter and the admin views read it as before (docs/decisions/0011-staff-roles.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('role', 'text', (c) =>
      c
        .notNull()
        .defaultTo('player')
        .check(sql`role in ('player', 'monitor', 'author', 'admin')`),
    )
    .execute();
  await sql`update users set role = 'admin' where is_admin = 1`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('role').execute();
}
