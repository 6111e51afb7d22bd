import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { listTeamSolves } from '../modules/teams/teams.repo.js';
import { withStatementCache } from './connect.js';
import { countedSolve } from './counted.js';
import { migrateToLatest } from './migrate.js';
import type { Database } from './schema.js';
import { ServerSqliteDialect } from './sqlite-dialect.js';

let raw: SQLite.Database;
afterEach(() => raw?.open && raw.close());

async function open(): Promise<Kysely<Database>> {
  raw = new SQLite(':memory:');
  const db = new Kysely<Database>({
    dialect: new ServerSqliteDialect(withStatementCache(raw), raw),
  });
  await migrateToLatest(db as Kysely<unknown>);
  return db;
}

const AT = '2026-01-01T00:00:00.000Z';

describe('what counts in public (countedSolve)', () => {
  it('reads the uncounted users and teams from their partial indexes, not from every row', async () => {
    const db = await open();
    const { sql: text, parameters } = db
      .selectFrom('solves')
      .select('solves.id')
      .where('solves.team_id', 'in', [1])
      .where(countedSolve)
      .compile();
    const plan = (
      raw.prepare(`explain query plan ${text}`).all(...(parameters as never[])) as { detail: string }[]
    )
      .map((r) => r.detail)
      .join('\n');
    expect(plan).toMatch(/SCAN users USING (COVERING )?INDEX users_uncounted_idx/);
    expect(plan).toMatch(/SCAN teams USING (COVERING )?INDEX teams_uncounted_idx/);
    expect(plan).not.toMatch(/SCAN (users|teams)$/m);
  });

  it('drops exactly the solves of admins, non-competing staff, hidden or banned users and hidden or banned teams', async () => {
    const db = await open();
    const leader = await db
      .insertInto('users')
      .values({ username: 'leader', username_key: 'leader', created_at: AT } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const team = (name: string, extra: { hidden?: number; banned?: number } = {}) =>
      db
        .insertInto('teams')
        .values({
          name,
          name_key: name.toLowerCase(),
          leader_id: leader.id,
          created_at: AT,
          ...extra,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((r) => r.id);
    const open1 = await team('Open');
    const hidden = await team('Hidden', { hidden: 1 });
    const banned = await team('Banned', { banned: 1 });
    const challenge = await db
      .insertInto('challenges')
      .values({
        name: 'c',
        category: 'misc',
        difficulty: 'easy',
        written_by: 'x',
        points: 100,
        created_at: AT,
        updated_at: AT,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const solver = async (username: string, teamId: number, extra: Record<string, unknown> = {}) => {
      const user = await db
        .insertInto('users')
        .values({ username, username_key: username, created_at: AT, team_id: teamId, ...extra } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('solves')
        .values({ user_id: user.id, challenge_id: challenge.id, team_id: teamId, created_at: AT })
        .execute();
      return username;
    };
    const counted = [
      await solver('player', open1),
      await solver('competing-author', open1, { role: 'author', competing: 1 }),
    ];
    await solver('admin', open1, { is_admin: 1, role: 'admin' });
    await solver('author', open1, { role: 'author' });
    await solver('monitor', open1, { role: 'monitor' });
    await solver('hidden', open1, { hidden: 1 });
    await solver('banned', open1, { banned: 1 });
    await solver('in-hidden-team', hidden);
    await solver('in-banned-team', banned);
    const rows = await listTeamSolves(db, [open1, hidden, banned]);
    expect(rows.map((r) => r.solver_name).sort()).toEqual(counted.sort());
  });
});
