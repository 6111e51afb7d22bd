import { sql } from 'kysely';
import { countedSolve } from '../../db/counted.js';
import type { Executor, TeamRow } from '../../db/schema.js';

export const TEAM_COLUMNS = [
  'teams.id',
  'teams.name',
  'teams.name_key',
  'teams.leader_id',
  'teams.member_count',
  'teams.created_at',
] as const;

export interface MemberRow {
  id: number;
  username: string;
  team_id: number;
  team_joined_at: string | null;
}

export interface JoinRequestRow {
  id: number;
  team_id: number;
  user_id: number;
  sender_name: string;
}

export interface TeamSolveRow {
  team_id: number;
  challenge_id: number;
  challenge_name: string;
  points: number;
  solver_name: string;
  created_at: string;
}

// ---- teams ----

export async function findTeamById(db: Executor, id: number): Promise<TeamRow | null> {
  return (
    (await db.selectFrom('teams').select(TEAM_COLUMNS).where('teams.id', '=', id).executeTakeFirst()) ?? null
  );
}

export async function findTeamByNameKey(db: Executor, key: string): Promise<TeamRow | null> {
  return (
    (await db
      .selectFrom('teams')
      .select(TEAM_COLUMNS)
      .where('teams.name_key', '=', key)
      .executeTakeFirst()) ?? null
  );
}

/** Every team, by name (admin view). */
export async function listAllTeams(db: Executor): Promise<TeamRow[]> {
  return db.selectFrom('teams').select(TEAM_COLUMNS).orderBy('teams.name_key').orderBy('teams.id').execute();
}

/** Teams with at least one free spot, by name; hidden and banned ones are in no public list. */
export async function listTeamsWithRoom(
  db: Executor,
  maxSize: number,
): Promise<{ name: string; member_count: number }[]> {
  return db
    .selectFrom('teams')
    .select(['teams.name', 'teams.member_count'])
    .where('teams.member_count', '<', maxSize)
    .where('teams.hidden', '=', 0)
    .where('teams.banned', '=', 0)
    .orderBy('teams.name_key')
    .orderBy('teams.id')
    .execute();
}

export async function insertTeam(
  db: Executor,
  row: { name: string; name_key: string; leader_id: number; member_count: number; created_at: string },
): Promise<number> {
  const inserted = await db.insertInto('teams').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function renameTeam(db: Executor, teamId: number, name: string, nameKey: string): Promise<void> {
  await db.updateTable('teams').set({ name, name_key: nameKey }).where('id', '=', teamId).execute();
}

export async function setTeamLeader(db: Executor, teamId: number, leaderId: number): Promise<void> {
  await db.updateTable('teams').set({ leader_id: leaderId }).where('id', '=', teamId).execute();
}

/**
 * Claims one spot: succeeds only while the team has room. NOTE: this conditional update is what
 * keeps the cap under concurrency (it takes the team row's write lock), not any earlier read.
 */
export async function claimTeamSpot(db: Executor, teamId: number, maxSize: number): Promise<boolean> {
  const result = await db
    .updateTable('teams')
    .set({ member_count: sql<number>`member_count + 1` })
    .where('id', '=', teamId)
    .where('member_count', '<', maxSize)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Frees one spot; answers the new count and the leader as they stand after this write. */
export async function releaseTeamSpot(
  db: Executor,
  teamId: number,
): Promise<{ member_count: number; leader_id: number } | null> {
  return (
    (await db
      .updateTable('teams')
      .set({ member_count: sql<number>`member_count - 1` })
      .where('id', '=', teamId)
      .where('member_count', '>', 0)
      .returning(['member_count', 'leader_id'])
      .executeTakeFirst()) ?? null
  );
}

export async function deleteTeamRow(db: Executor, teamId: number): Promise<void> {
  await db.deleteFrom('teams').where('id', '=', teamId).execute();
}

// ---- membership (users.team_id) ----

/** Puts a teamless user into a team; false when the user is already in one. */
export async function attachUserToTeam(
  db: Executor,
  userId: number,
  teamId: number,
  joinedAt: string,
  /**
   * When given (issue 19), the user must be in this division (null: none) at the moment of the
   * update, so a division change racing with the acceptance cannot put them on a team of another.
   */
  divisionId?: number | null,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ team_id: teamId, team_joined_at: joinedAt })
    .where('id', '=', userId)
    .where('team_id', 'is', null)
    .$if(divisionId !== undefined, (q) =>
      divisionId === null ? q.where('division_id', 'is', null) : q.where('division_id', '=', divisionId!),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Takes a user out of the given team; false when they were not (or no longer) in it. */
export async function detachUserFromTeam(db: Executor, userId: number, teamId: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ team_id: null, team_joined_at: null })
    .where('id', '=', userId)
    .where('team_id', '=', teamId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function detachAllMembers(db: Executor, teamId: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ team_id: null, team_joined_at: null })
    .where('team_id', '=', teamId)
    .execute();
}

export async function findUserTeamId(
  db: Executor,
  userId: number,
): Promise<{ team_id: number | null } | null> {
  return (
    (await db
      .selectFrom('users')
      .select('users.team_id')
      .where('users.id', '=', userId)
      .executeTakeFirst()) ?? null
  );
}

/** Members of the given teams, longest-standing first (join time, then id). */
export async function listMembers(db: Executor, teamIds: readonly number[]): Promise<MemberRow[]> {
  if (teamIds.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .select(['users.id', 'users.username', 'users.team_id', 'users.team_joined_at'])
    .where('users.team_id', 'in', teamIds)
    .orderBy('users.team_joined_at')
    .orderBy('users.id')
    .execute();
  return rows.filter((r): r is MemberRow => r.team_id !== null);
}

/** A member of the team found by username key, or null. */
export async function findMemberByUsernameKey(
  db: Executor,
  teamId: number,
  usernameKey: string,
): Promise<{ id: number; username: string } | null> {
  return (
    (await db
      .selectFrom('users')
      .select(['users.id', 'users.username'])
      .where('users.team_id', '=', teamId)
      .where('users.username_key', '=', usernameKey)
      .executeTakeFirst()) ?? null
  );
}

export async function findUsernameById(db: Executor, userId: number): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select('users.username')
    .where('users.id', '=', userId)
    .executeTakeFirst();
  return row?.username ?? null;
}

// ---- join requests ----

export async function insertJoinRequest(
  db: Executor,
  row: { team_id: number; user_id: number; created_at: string },
): Promise<number> {
  const inserted = await db.insertInto('join_requests').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function findJoinRequest(
  db: Executor,
  id: number,
): Promise<{ id: number; team_id: number; user_id: number } | null> {
  return (
    (await db
      .selectFrom('join_requests')
      .select(['join_requests.id', 'join_requests.team_id', 'join_requests.user_id'])
      .where('join_requests.id', '=', id)
      .executeTakeFirst()) ?? null
  );
}

/**
 * Pending requests of the given teams with the sender's username, oldest first. A request from
 * someone who meanwhile joined a team can no longer be accepted, so it is not shown.
 */
export async function listJoinRequests(db: Executor, teamIds: readonly number[]): Promise<JoinRequestRow[]> {
  if (teamIds.length === 0) return [];
  return db
    .selectFrom('join_requests')
    .innerJoin('users', 'users.id', 'join_requests.user_id')
    .select([
      'join_requests.id',
      'join_requests.team_id',
      'join_requests.user_id',
      'users.username as sender_name',
    ])
    .where('join_requests.team_id', 'in', teamIds)
    .where('users.team_id', 'is', null)
    .orderBy('join_requests.created_at')
    .orderBy('join_requests.id')
    .execute();
}

export async function deleteJoinRequest(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('join_requests').where('id', '=', id).execute();
}

export async function deleteJoinRequestsOfUser(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('join_requests').where('user_id', '=', userId).execute();
}

export async function deleteJoinRequestsOfTeam(db: Executor, teamId: number): Promise<void> {
  await db.deleteFrom('join_requests').where('team_id', '=', teamId).execute();
}

// ---- completions ----

/**
 * Every solve recorded with one of the given teams, oldest first (time, then id), with the
 * challenge and the solver. The service keeps the first per challenge (docs/product.md §12).
 */
export async function listTeamSolves(db: Executor, teamIds: readonly number[]): Promise<TeamSolveRow[]> {
  if (teamIds.length === 0) return [];
  const rows = await db
    .selectFrom('solves')
    .innerJoin('challenges', 'challenges.id', 'solves.challenge_id')
    .innerJoin('users', 'users.id', 'solves.user_id')
    .select([
      'solves.team_id',
      'solves.challenge_id',
      'challenges.name as challenge_name',
      'challenges.points',
      'users.username as solver_name',
      'solves.created_at',
    ])
    .where('solves.team_id', 'in', teamIds)
    // Admins' and hidden competitors' solves count nowhere (one shared filter, db/counted.ts).
    .where(countedSolve)
    .orderBy('solves.created_at')
    .orderBy('solves.id')
    .execute();
  return rows.filter((r): r is TeamSolveRow => r.team_id !== null);
}
