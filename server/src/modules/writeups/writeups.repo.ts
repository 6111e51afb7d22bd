import type { Selectable } from 'kysely';
import type { Executor, WriteupsTable } from '../../db/schema.js';

export type WriteupRow = Selectable<WriteupsTable>;

/** What a hand-in writes: a link, or a stored file. */
export type WriteupContent =
  | { url: string; file: null }
  | { url: null; file: { name: string; size: number; type: string; key: string } };

/**
 * Locks what a competitor's hand-ins serialise on (PostgreSQL; SQLite's writers are serial
 * already): the team row, or the user row of a player without a team. So two members handing in
 * at once read the replaced writeup one after the other, and each replaced file is removed.
 */
export async function lockCompetitor(
  trx: Executor,
  competitor: { teamId: number | null; userId: number },
  postgres: boolean,
): Promise<void> {
  if (!postgres) return;
  if (competitor.teamId !== null)
    await trx.selectFrom('teams').select('id').where('id', '=', competitor.teamId).forNoKeyUpdate().execute();
  else
    await trx.selectFrom('users').select('id').where('id', '=', competitor.userId).forNoKeyUpdate().execute();
}

export async function findWriteupOf(
  db: Executor,
  challengeId: number,
  competitor: string,
): Promise<WriteupRow | null> {
  return (
    (await db
      .selectFrom('writeups')
      .selectAll()
      .where('challenge_id', '=', challengeId)
      .where('competitor', '=', competitor)
      .executeTakeFirst()) ?? null
  );
}

/**
 * Writes a competitor's writeup of a challenge: a new row, or the one it had replaced in place
 * (UNIQUE(challenge_id, competitor): racing hand-ins leave one row). A replacement is a new
 * version: not reviewed, not published.
 */
export async function upsertWriteup(
  db: Executor,
  row: {
    challengeId: number;
    competitor: string;
    teamId: number | null;
    userId: number;
    content: WriteupContent;
    at: string;
  },
): Promise<number> {
  const values = {
    team_id: row.teamId,
    user_id: row.userId,
    url: row.content.url,
    file_name: row.content.file?.name ?? null,
    file_size: row.content.file?.size ?? null,
    file_type: row.content.file?.type ?? null,
    storage_key: row.content.file?.key ?? null,
    submitted_at: row.at,
    reviewed: 0,
    published: 0,
  };
  const inserted = await db
    .insertInto('writeups')
    .values({ challenge_id: row.challengeId, competitor: row.competitor, ...values })
    .onConflict((oc) => oc.columns(['challenge_id', 'competitor']).doUpdateSet(values))
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function listWriteupsOfCompetitor(db: Executor, competitor: string): Promise<WriteupRow[]> {
  return db
    .selectFrom('writeups')
    .selectAll()
    .where('competitor', '=', competitor)
    .orderBy('challenge_id')
    .execute();
}

/** Every writeup (optionally of one challenge, or only published ones), oldest first. */
export async function listWriteups(
  db: Executor,
  filter: { challengeIds?: readonly number[]; publishedOnly?: boolean } = {},
): Promise<WriteupRow[]> {
  let query = db.selectFrom('writeups').selectAll().orderBy('submitted_at').orderBy('id');
  if (filter.challengeIds) {
    if (filter.challengeIds.length === 0) return [];
    query = query.where('challenge_id', 'in', filter.challengeIds);
  }
  if (filter.publishedOnly) query = query.where('published', '=', 1);
  return query.execute();
}

export async function findWriteup(db: Executor, id: number): Promise<WriteupRow | null> {
  return (await db.selectFrom('writeups').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function setWriteupReview(
  db: Executor,
  id: number,
  flags: { reviewed: boolean; published: boolean },
): Promise<boolean> {
  const result = await db
    .updateTable('writeups')
    .set({ reviewed: flags.reviewed ? 1 : 0, published: flags.published ? 1 : 0 })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The names (and divisions) of competitors: teams by id, players without a team by user id. */
export async function competitorNames(
  db: Executor,
  teamIds: readonly number[],
  userIds: readonly number[],
): Promise<{
  teams: Map<number, { name: string; divisionId: number | null }>;
  users: Map<number, { name: string; divisionId: number | null }>;
}> {
  const [teams, users] = await Promise.all([
    teamIds.length === 0
      ? []
      : db
          .selectFrom('teams')
          .leftJoin('users', 'users.id', 'teams.leader_id')
          .select(['teams.id', 'teams.name', 'users.division_id'])
          .where('teams.id', 'in', [...new Set(teamIds)])
          .execute(),
    userIds.length === 0
      ? []
      : db
          .selectFrom('users')
          .select(['id', 'username', 'division_id'])
          .where('id', 'in', [...new Set(userIds)])
          .execute(),
  ]);
  return {
    teams: new Map(teams.map((t) => [t.id, { name: t.name, divisionId: t.division_id ?? null }])),
    users: new Map(users.map((u) => [u.id, { name: u.username, divisionId: u.division_id }])),
  };
}
