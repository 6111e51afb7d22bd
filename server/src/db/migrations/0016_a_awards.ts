import { sql, type Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * Awards (issue 31): points an admin gives a user or a team, with a reason. Like a solve, an award
 * to a user records the team the user was on at that moment (team_id, no foreign key: it never
 * moves); an award to a team has no user. A removed user's awards go with them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('awards'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('team_id', 'integer')
    .addColumn('points', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint('awards_recipient', sql`user_id is not null or team_id is not null`)
    .addCheckConstraint('awards_points_range', sql`points <> 0 and points between -100000 and 100000`)
    .execute();
  await db.schema.createIndex('awards_user_idx').on('awards').column('user_id').execute();
  await db.schema.createIndex('awards_team_idx').on('awards').column('team_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('awards').execute();
}
