import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';

/** An award as the board reads it: who it counts for and when. */
export interface BoardAward {
  id: number;
  user_id: number | null;
  team_id: number | null;
  points: number;
  /** ISO 8601 UTC. */
  created_at: string;
}

export interface AwardRow extends BoardAward {
  reason: string;
}

/**
 * Records an award. One given to a user records the team the user is on in the same statement
 * (like a solve, it never moves); answers the new id, or undefined when the user or team does
 * not exist.
 */
export async function insertAward(
  db: Executor,
  award: { userId: number | null; teamId: number | null; points: number; reason: string; createdAt: string },
): Promise<number | undefined> {
  const row =
    award.userId !== null
      ? await db
          .insertInto('awards')
          .columns(['user_id', 'team_id', 'points', 'reason', 'created_at'])
          .expression((eb) =>
            eb
              .selectFrom('users')
              .select([
                'users.id',
                'users.team_id',
                sql.lit(award.points).as('points'),
                eb.val(award.reason).as('reason'),
                eb.val(award.createdAt).as('created_at'),
              ])
              .where('users.id', '=', award.userId!),
          )
          .returning('id')
          .executeTakeFirst()
      : await db
          .insertInto('awards')
          .columns(['user_id', 'team_id', 'points', 'reason', 'created_at'])
          .expression((eb) =>
            eb
              .selectFrom('teams')
              .select([
                sql<null>`cast(null as integer)`.as('user_id'),
                'teams.id',
                sql.lit(award.points).as('points'),
                eb.val(award.reason).as('reason'),
                eb.val(award.createdAt).as('created_at'),
              ])
              .where('teams.id', '=', award.teamId!),
          )
          .returning('id')
          .executeTakeFirst();
  return row?.id;
}

export async function findAward(db: Executor, id: number): Promise<AwardRow | undefined> {
  return db
    .selectFrom('awards')
    .select(['id', 'user_id', 'team_id', 'points', 'reason', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteAwardRow(db: Executor, id: number): Promise<boolean> {
  const result = await db.deleteFrom('awards').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Every award with its user's and team's names (null when absent or removed), newest first. */
export async function listAwardRows(
  db: Executor,
): Promise<(AwardRow & { username: string | null; team_name: string | null })[]> {
  return db
    .selectFrom('awards')
    .leftJoin('users', 'users.id', 'awards.user_id')
    .leftJoin('teams', 'teams.id', 'awards.team_id')
    .select([
      'awards.id',
      'awards.user_id',
      'awards.team_id',
      'awards.points',
      'awards.reason',
      'awards.created_at',
      'users.username',
      'teams.name as team_name',
    ])
    .orderBy('awards.created_at', 'desc')
    .orderBy('awards.id', 'desc')
    .execute();
}

/** The awards of these users (by user_id) or these teams (by team_id; 'all': any), oldest first. */
export async function listAwardsOf(
  db: Executor,
  column: 'user_id' | 'team_id',
  ids: readonly number[] | 'all',
): Promise<AwardRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('awards')
    .select(['id', 'user_id', 'team_id', 'points', 'reason', 'created_at'])
    .$if(ids === 'all', (q) => q.where(column, 'is not', null))
    .$if(ids !== 'all', (q) => q.where(column, 'in', ids as readonly number[]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Every award before the cutoff (all of them without one), for a full build of the board. */
export async function listBoardAwards(db: Executor, cutoff: string | null): Promise<BoardAward[]> {
  return db
    .selectFrom('awards')
    .select(['id', 'user_id', 'team_id', 'points', 'created_at'])
    .$if(cutoff !== null, (q) => q.where('created_at', '<', cutoff!))
    .orderBy('id')
    .execute();
}

/** Where a reader of the awards stands: their count and the highest id it has seen. */
export interface AwardFeedPosition {
  count: number;
  maxId: number;
}

export async function currentAwardPosition(db: Executor): Promise<AwardFeedPosition> {
  const { rows } = await sql<{ total: number | string; max_id: number | string }>`select
      count(*) as total, coalesce(max(id), 0) as max_id from awards`.execute(db);
  return { count: Number(rows[0]!.total), maxId: Number(rows[0]!.max_id) };
}

/**
 * The awards recorded after a position, in one statement with their count (as the hint unlocks'
 * feed). When the count does not add up (an award deleted, or on PostgreSQL one committed below
 * an id already seen), the caller starts over from a full read. Awards are few: counting is cheap.
 */
export async function readAwardsSince(
  db: Executor,
  after: AwardFeedPosition,
): Promise<{ position: AwardFeedPosition; awards: BoardAward[]; consistent: boolean }> {
  const { rows } = await sql<{
    total: number | string;
    id: number | null;
    user_id: number | null;
    team_id: number | null;
    points: number | null;
    created_at: string | null;
  }>`select t.total, a.id, a.user_id, a.team_id, a.points, a.created_at
       from (select count(*) as total from awards) t
       left join awards a on a.id > ${after.maxId}
       order by a.id`.execute(db);
  const awards = rows
    .filter((r) => r.id !== null)
    .map((r) => ({
      id: Number(r.id),
      user_id: r.user_id === null ? null : Number(r.user_id),
      team_id: r.team_id === null ? null : Number(r.team_id),
      points: Number(r.points),
      created_at: r.created_at!,
    }));
  const count = Number(rows[0]?.total ?? 0);
  const maxId = awards.reduce((m, a) => Math.max(m, a.id), after.maxId);
  return { position: { count, maxId }, awards, consistent: count === after.count + awards.length };
}
