import { sql, type Kysely } from 'kysely';

/**
 * The few users and teams whose solves never count (db/counted.ts), indexed apart. Every public
 * figure excludes them as sets (`not in (select id ...)`), and without these indexes each query
 * built those sets by reading every user and every team: ~0.7 ms a query at 5,000 players, paid
 * by each player's first list of their team's solves (bench/NOTES.md). A partial index holds only
 * their ids, so the sets cost a read of a handful of entries. Each index's condition is the rule
 * of counted.ts written with the same literals: the query planner uses a partial index only for a
 * query whose condition contains the index's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index users_uncounted_idx on users (id)
    where is_admin = 1 or (role in ('monitor', 'author') and competing = 0) or hidden = 1 or banned = 1`.execute(
    db,
  );
  await sql`create index teams_uncounted_idx on teams (id) where hidden = 1 or banned = 1`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('teams_uncounted_idx').execute();
  await db.schema.dropIndex('users_uncounted_idx').execute();
}
