import { sql, type Kysely } from 'kysely';
import { isPostgres } from './helpers.js';

/**
 * SQLite only: a one-row counter that the database itself moves whenever solves change in a way
 * other than a new solve with the highest id: a deletion, an update, or an insert below the
 * highest id. Readers that apply new solves incrementally (scoreboard/solve-feed.ts) compare it
 * instead of counting every solve (~0.4 ms at 50,000 solves, per read). PostgreSQL keeps the count:
 * there ids are handed out before commit, so a late commit is only seen that way.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`create table solve_changes (id integer primary key check (id = 1), changes integer not null)`.execute(
    db,
  );
  await sql`insert into solve_changes (id, changes) values (1, 0)`.execute(db);
  await sql`create trigger solves_deleted after delete on solves
    begin update solve_changes set changes = changes + 1; end`.execute(db);
  await sql`create trigger solves_updated after update on solves
    begin update solve_changes set changes = changes + 1; end`.execute(db);
  await sql`create trigger solves_inserted_below after insert on solves
    when exists (select 1 from solves where id > new.id)
    begin update solve_changes set changes = changes + 1; end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`drop trigger solves_inserted_below`.execute(db);
  await sql`drop trigger solves_updated`.execute(db);
  await sql`drop trigger solves_deleted`.execute(db);
  await sql`drop table solve_changes`.execute(db);
}
