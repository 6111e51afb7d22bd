import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';

export interface HintRow {
  id: number;
  challenge_id: number;
  position: number;
  title: string;
  content: string;
  cost: number;
}

/** Every hint (or those of some challenges), in challenge then author order. */
export async function listHints(db: Executor, challengeIds?: readonly number[]): Promise<HintRow[]> {
  if (challengeIds && challengeIds.length === 0) return [];
  return db
    .selectFrom('hints')
    .select(['id', 'challenge_id', 'position', 'title', 'content', 'cost'])
    .$if(challengeIds !== undefined, (q) => q.where('challenge_id', 'in', challengeIds!))
    .orderBy('challenge_id')
    .orderBy('position')
    .execute();
}

export async function findHint(db: Executor, id: number): Promise<HintRow | undefined> {
  return db
    .selectFrom('hints')
    .select(['id', 'challenge_id', 'position', 'title', 'content', 'cost'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteHintsExcept(
  db: Executor,
  challengeId: number,
  keep: readonly number[],
): Promise<void> {
  await db
    .deleteFrom('hints')
    .where('challenge_id', '=', challengeId)
    .$if(keep.length > 0, (q) => q.where('id', 'not in', keep))
    .execute();
}

/** Updates a hint of this challenge in place (its unlocks stay); false when it is not one of them. */
export async function updateHintRow(
  db: Executor,
  challengeId: number,
  id: number,
  fields: { position: number; title: string; content: string; cost: number },
): Promise<boolean> {
  const result = await db
    .updateTable('hints')
    .set(fields)
    .where('id', '=', id)
    .where('challenge_id', '=', challengeId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function insertHintRow(
  db: Executor,
  hint: { challenge_id: number; position: number; title: string; content: string; cost: number },
): Promise<void> {
  await db.insertInto('hints').values(hint).execute();
}

/**
 * Records an unlock for the user's competitor (the team the user is on at this moment, or the
 * user with no team; a team id that names no team counts as none), in one statement: the team is
 * read and the unlock written atomically. The (hint, competitor) unique rule makes a repeat, or
 * any number of parallel requests, record it once. Answers whether this call recorded it.
 */
export async function insertUnlockForCurrentCompetitor(
  db: Executor,
  unlock: { hintId: number; userId: number; createdAt: string },
): Promise<boolean> {
  const row = await db
    .insertInto('hint_unlocks')
    .columns(['hint_id', 'user_id', 'team_id', 'competitor', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .leftJoin('teams', 'teams.id', 'users.team_id')
        .select([
          sql<number>`cast(${unlock.hintId} as integer)`.as('hint_id'),
          'users.id as user_id',
          'teams.id as team_id',
          sql<string>`case when teams.id is null then 'u' || cast(users.id as text)
            else 't' || cast(teams.id as text) end`.as('competitor'),
          sql<string>`cast(${unlock.createdAt} as text)`.as('created_at'),
        ])
        .where('users.id', '=', unlock.userId),
    )
    .onConflict((oc) => oc.columns(['hint_id', 'competitor']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The hints (among some) a competitor has unlocked. */
export async function unlockedHintIds(
  db: Executor,
  competitor: string,
  hintIds: readonly number[],
): Promise<Set<number>> {
  if (hintIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('hint_unlocks')
    .select('hint_id')
    .where('competitor', '=', competitor)
    .where('hint_id', 'in', hintIds)
    .execute();
  return new Set(rows.map((r) => r.hint_id));
}

/** Who unlocked each hint (usernames, unlock order): admin views. */
export async function listUnlockers(db: Executor): Promise<{ hint_id: number; username: string }[]> {
  return db
    .selectFrom('hint_unlocks')
    .innerJoin('users', 'users.id', 'hint_unlocks.user_id')
    .select(['hint_unlocks.hint_id', 'users.username'])
    .orderBy('hint_unlocks.created_at')
    .orderBy('hint_unlocks.id')
    .execute();
}

export interface NewUnlock {
  id: number;
  user_id: number;
  team_id: number | null;
  /** The hint's cost (what leaves the competitor's score) and when it was unlocked (a freeze's cutoff). */
  cost: number;
  created_at: string;
}

/** Where a reader of the unlocks stands: their count and the highest id it has seen. */
export interface UnlockFeedPosition {
  count: number;
  maxId: number;
}

export async function currentUnlockPosition(db: Executor): Promise<UnlockFeedPosition> {
  const { rows } = await sql<{ total: number | string; max_id: number | string }>`select
      count(*) as total, coalesce(max(id), 0) as max_id from hint_unlocks`.execute(db);
  return { count: Number(rows[0]!.total), maxId: Number(rows[0]!.max_id) };
}

/**
 * The unlocks recorded after a position, in one statement with their count. When the count does
 * not add up (an unlock deleted, or on PostgreSQL one committed below an id already seen), the
 * caller starts over from a full read. Unlocks are few, so counting them all is cheap.
 */
export async function readUnlocksSince(
  db: Executor,
  after: UnlockFeedPosition,
): Promise<{ position: UnlockFeedPosition; unlocks: NewUnlock[]; consistent: boolean }> {
  const { rows } = await sql<{
    total: number | string;
    id: number | null;
    user_id: number | null;
    team_id: number | null;
    cost: number | null;
    created_at: string | null;
  }>`select t.total, u.id, u.user_id, u.team_id, h.cost, u.created_at
       from (select count(*) as total from hint_unlocks) t
       left join hint_unlocks u on u.id > ${after.maxId}
       left join hints h on h.id = u.hint_id
       order by u.id`.execute(db);
  const unlocks = rows
    .filter((r) => r.id !== null)
    .map((r) => ({
      id: Number(r.id),
      user_id: Number(r.user_id),
      team_id: r.team_id === null ? null : Number(r.team_id),
      cost: Number(r.cost ?? 0),
      created_at: r.created_at!,
    }));
  const count = Number(rows[0]?.total ?? 0);
  const maxId = unlocks.reduce((m, u) => Math.max(m, u.id), after.maxId);
  return { position: { count, maxId }, unlocks, consistent: count === after.count + unlocks.length };
}
