import type { Executor } from '../../db/schema.js';

export interface DivisionRow {
  id: number;
  name: string;
  name_key: string;
  /** Comma-separated lower-case domains; '' when anyone may pick the division. */
  email_domains: string;
  position: number;
}

export async function listDivisionRows(db: Executor): Promise<DivisionRow[]> {
  return db
    .selectFrom('divisions')
    .select(['id', 'name', 'name_key', 'email_domains', 'position'])
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/**
 * Replaces the set inside the caller's transaction: a division whose key is kept is updated in
 * place (its id, so its members, stay), a new one is inserted, a missing one is deleted and its
 * members are left with none. Answers the ids removed and how many users lost their division.
 */
export async function replaceDivisionRows(
  trx: Executor,
  wanted: readonly { name: string; name_key: string; email_domains: string }[],
): Promise<{ removed: DivisionRow[]; usersCleared: number }> {
  const existing = await listDivisionRows(trx);
  const byKey = new Map(existing.map((d) => [d.name_key, d]));
  const keep = new Set(wanted.map((d) => d.name_key));
  const removed = existing.filter((d) => !keep.has(d.name_key));
  let usersCleared = 0;
  if (removed.length > 0) {
    const ids = removed.map((d) => d.id);
    const cleared = await trx
      .updateTable('users')
      .set({ division_id: null })
      .where('division_id', 'in', ids)
      .executeTakeFirst();
    usersCleared = Number(cleared.numUpdatedRows);
    await trx.deleteFrom('divisions').where('id', 'in', ids).execute();
  }
  for (const [position, d] of wanted.entries()) {
    const row = byKey.get(d.name_key);
    if (row) {
      await trx
        .updateTable('divisions')
        .set({ name: d.name, email_domains: d.email_domains, position })
        .where('id', '=', row.id)
        .execute();
    } else {
      await trx
        .insertInto('divisions')
        .values({ name: d.name, name_key: d.name_key, email_domains: d.email_domains, position })
        .execute();
    }
  }
  return { removed, usersCleared };
}

/**
 * The caller's row for a division change, locked on PostgreSQL (FOR UPDATE) until the transaction
 * ends: a concurrent first solve (whose foreign key takes a KEY SHARE lock on this row) or team
 * move waits for the change, or the change waits for it and then sees it (SQLite's writers are
 * serialised by BEGIN IMMEDIATE already).
 */
export async function lockUserForDivision(
  trx: Executor,
  userId: number,
  postgres: boolean,
): Promise<{ id: number; email: string; team_id: number | null; division_id: number | null } | null> {
  return (
    (await trx
      .selectFrom('users')
      .select(['id', 'email', 'team_id', 'division_id'])
      .where('id', '=', userId)
      .$if(postgres, (q) => q.forUpdate())
      .executeTakeFirst()) ?? null
  );
}

/** The team row, locked on PostgreSQL like the user's (a join claims its spot with an update). */
export async function lockTeamForDivision(
  trx: Executor,
  teamId: number,
  postgres: boolean,
): Promise<{ id: number; leader_id: number; member_count: number } | null> {
  return (
    (await trx
      .selectFrom('teams')
      .select(['id', 'leader_id', 'member_count'])
      .where('id', '=', teamId)
      .$if(postgres, (q) => q.forUpdate())
      .executeTakeFirst()) ?? null
  );
}

export async function hasSolvesOfUser(trx: Executor, userId: number): Promise<boolean> {
  const row = await trx
    .selectFrom('solves')
    .select('id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function hasSolvesOfTeam(trx: Executor, teamId: number): Promise<boolean> {
  const row = await trx
    .selectFrom('solves')
    .select('id')
    .where('team_id', '=', teamId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function setUserDivision(
  trx: Executor,
  userId: number,
  divisionId: number | null,
): Promise<void> {
  await trx.updateTable('users').set({ division_id: divisionId }).where('id', '=', userId).execute();
}

/** The divisions of some users (a joiner and a team's leader), read fresh. */
export async function divisionsOfUsers(
  db: Executor,
  ids: readonly number[],
): Promise<Map<number, number | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'division_id'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.division_id]));
}
