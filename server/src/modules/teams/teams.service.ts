import { DIVISION_MESSAGES, MAX_TEAM_SIZE, MESSAGES, cleanName, nameKey, teamsApi } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/connect.js';
import type { Executor, TeamRow, UserRow } from '../../db/schema.js';
import { constantTimeEqual, hmac } from '../../lib/crypto.js';
import { DomainError, badInput, conflict, forbidden, notFound } from '../../lib/errors.js';
import type { DomainEventMap } from '../../lib/domain-events.js';
import { SYSTEM_ACTOR, recordAudit, type AuditActor } from '../audit/audit.service.js';
import { nameOwner } from '../users/users.service.js';
import { departCurrentTeam, departTeam } from './teams.membership.js';
import { readUserDivisions } from '../divisions/divisions.service.js';
import {
  attachUserToTeam,
  claimTeamSpot,
  deleteJoinRequest,
  deleteJoinRequestsOfTeam,
  deleteJoinRequestsOfUser,
  detachAllMembers,
  deleteTeamRow,
  findJoinRequest,
  findMemberByUsernameKey,
  findTeamById,
  findTeamByNameKey,
  findUserTeamId,
  insertJoinRequest,
  insertTeam,
  renameTeam as renameTeamRow,
} from './teams.repo.js';

const TEXT = teamsApi.TEAM_MESSAGES;

/**
 * The checksum the leader sends back with an accept: it binds the request id to its team and
 * sender, so an id alone (guessable) cannot be accepted.
 */
export function joinRequestChecksum(
  ctx: AppContext,
  requestId: number,
  teamId: number,
  userId: number,
): string {
  return hmac(ctx.config.sessionSecret, 'join-request', requestId, teamId, userId);
}

/** The display form and the uniqueness key of a team name, re-checked after normalisation. */
function normaliseTeamName(raw: string): { name: string; key: string } {
  const name = cleanName(raw);
  // NFKC can change the length (ligatures expand), so the contract's rules run once more.
  const checked = teamsApi.TeamName.safeParse(name);
  if (!checked.success) throw badInput(checked.error.issues[0]?.message ?? 'Invalid team name');
  return { name: checked.data, key: nameKey(checked.data) };
}

/**
 * Team names and usernames are one namespace: a team named like a player would be taken for that
 * player wherever a name is looked up (issue 29: a team `PLAYER1` was served player1's per-team
 * flag). NOTE: checked in the write's transaction, which serialises it on SQLite; on PostgreSQL a
 * sign-up racing the same instant could still pair them, and name lookups that serve flags refuse
 * a name that means two competitors (team-flags.service.ts).
 */
async function refuseUsername(db: Executor, key: string): Promise<void> {
  if ((await nameOwner(db, key)) === 'user') throw new DomainError('name_taken', TEXT.nameIsUsername);
}

function nameTaken(): DomainError {
  return new DomainError('name_taken', TEXT.nameTaken);
}

/** The team the caller leads, or 403. */
async function requireLedTeam(db: Executor, user: UserRow): Promise<TeamRow> {
  const membership = await findUserTeamId(db, user.id);
  const team = membership?.team_id ? await findTeamById(db, membership.team_id) : null;
  if (!team || team.leader_id !== user.id) throw forbidden(TEXT.leaderOnly);
  return team;
}

type MembershipChange = DomainEventMap['membership.changed'];

/**
 * Tells the modules that hold something per competitor (instances) that a user left one, inside
 * the change's transaction (they settle it with the change); answers the event, which the caller
 * emits again after its commit for their clean-up. `userId` null: the whole team went.
 */
async function leftCompetitor(
  ctx: AppContext,
  trx: Executor,
  userId: number | null,
  left: MembershipChange['left'],
): Promise<MembershipChange> {
  const change = { userId: userId ?? 0, left };
  await ctx.domainEvents.emitInTransaction(trx, 'membership.changed', change);
  return change;
}

/** After the commit: the clean-up of each change (errors are logged, the change stands). */
function settled(ctx: AppContext, changes: readonly (MembershipChange | null)[]): void {
  for (const c of changes) if (c) void ctx.domainEvents.emit('membership.changed', c);
}

/** Creates a team led by the caller, who must be teamless; their pending requests go. */
export async function createTeam(ctx: AppContext, user: UserRow, rawName: string): Promise<string> {
  const { name, key } = normaliseTeamName(rawName);
  const now = ctx.clock.now().toISOString();
  const change = await ctx.database.transaction(async (trx) => {
    await refuseUsername(trx, key);
    let teamId: number;
    try {
      teamId = await insertTeam(trx, {
        name,
        name_key: key,
        leader_id: user.id,
        member_count: 1,
        created_at: now,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    }
    // NOTE: the conditional update, not the session's copy of the user, decides "already in a team".
    if (!(await attachUserToTeam(trx, user.id, teamId, now))) throw conflict(TEXT.alreadyInTeam);
    await deleteJoinRequestsOfUser(trx, user.id);
    return leftCompetitor(ctx, trx, user.id, { kind: 'user', id: user.id });
  });
  ctx.bus.publish('teams');
  settled(ctx, [change]);
  return MESSAGES.teamCreated;
}

/** Asks to join a team by name; the leader accepts with the request's id and checksum. */
export async function requestToJoin(ctx: AppContext, user: UserRow, rawName: string): Promise<string> {
  const db = ctx.database.db;
  const membership = await findUserTeamId(db, user.id);
  if (membership?.team_id) throw conflict(TEXT.alreadyInTeam);
  const team = await findTeamByNameKey(db, nameKey(rawName));
  if (!team) throw notFound(TEXT.teamNotFound);
  if (team.member_count >= MAX_TEAM_SIZE) throw new DomainError('team_full', TEXT.teamFull);
  // Issue 19: a team plays in its leader's division (null for both while the site has none).
  const divisions = await readUserDivisions(db, [user.id, team.leader_id]);
  if (divisions.get(user.id) !== divisions.get(team.leader_id))
    throw conflict(DIVISION_MESSAGES.joinOtherDivision);
  try {
    await insertJoinRequest(db, {
      team_id: team.id,
      user_id: user.id,
      created_at: ctx.clock.now().toISOString(),
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(TEXT.alreadyRequested);
    throw err;
  }
  ctx.bus.publish('teams');
  return MESSAGES.requestSent;
}

/** Renames the caller's team (leader only); the new name must be free. */
export async function renameTeam(ctx: AppContext, user: UserRow, rawName: string): Promise<string> {
  const { name, key } = normaliseTeamName(rawName);
  const team = await requireLedTeam(ctx.database.db, user);
  await refuseUsername(ctx.database.db, key);
  try {
    await renameTeamRow(ctx.database.db, team.id, name, key);
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken();
    throw err;
  }
  ctx.bus.publish('teams');
  return MESSAGES.teamUpdated;
}

/**
 * Leave Team (docs/product.md's replace-leader call): any member may leave the team the body names, which
 * must be their own. Leadership passes on; an emptied team is deleted.
 */
export async function leaveTeam(ctx: AppContext, user: UserRow, teamName: string): Promise<string> {
  const { deleted, change } = await ctx.database.transaction(async (trx) => {
    const membership = await findUserTeamId(trx, user.id);
    if (!membership?.team_id) throw badInput(TEXT.notInTeam);
    const team = await findTeamById(trx, membership.team_id);
    if (!team || team.name_key !== nameKey(teamName)) throw badInput(TEXT.notYourTeam);
    const departure = await departTeam(trx, user.id, team.id);
    if (!departure) throw badInput(TEXT.notInTeam);
    const left = await leftCompetitor(ctx, trx, user.id, { kind: 'team', id: team.id });
    return { deleted: departure.teamDeleted, change: left };
  });
  ctx.bus.publish('teams');
  settled(ctx, [change]);
  return deleted ? TEXT.leftAndDeleted : TEXT.leftTeam;
}

/** The leader removes another member; the leader can never be removed. */
export async function removeMember(ctx: AppContext, user: UserRow, memberUsername: string): Promise<string> {
  const key = nameKey(memberUsername);
  const change = await ctx.database.transaction(async (trx) => {
    const team = await requireLedTeam(trx, user);
    if (key === user.username_key) throw badInput(TEXT.leaderCannotBeRemoved);
    const member = await findMemberByUsernameKey(trx, team.id, key);
    if (!member) throw notFound(TEXT.memberNotFound);
    if (!(await departTeam(trx, member.id, team.id))) throw notFound(TEXT.memberNotFound);
    return leftCompetitor(ctx, trx, member.id, { kind: 'team', id: team.id });
  });
  ctx.bus.publish('teams');
  settled(ctx, [change]);
  return TEXT.memberRemoved;
}

/**
 * The leader accepts a join request. One transaction claims the spot with a conditional update
 * (the cap holds whatever races), moves the sender in only if they are still teamless, and drops
 * all of the sender's other requests.
 */
export async function acceptJoinRequest(
  ctx: AppContext,
  user: UserRow,
  input: { requestId: number; checksum: string },
): Promise<string> {
  let staleRequest: number | null = null;
  let change: MembershipChange | null = null;
  try {
    change = await ctx.database.transaction(async (trx) => {
      const team = await requireLedTeam(trx, user);
      const request = await findJoinRequest(trx, input.requestId);
      if (!request) throw notFound(TEXT.requestNotFound);
      const expected = joinRequestChecksum(ctx, request.id, request.team_id, request.user_id);
      if (!constantTimeEqual(input.checksum, expected)) throw forbidden(TEXT.badChecksum);
      if (request.team_id !== team.id) throw forbidden(TEXT.requestNotForYourTeam);
      if (!(await claimTeamSpot(trx, team.id, MAX_TEAM_SIZE))) {
        throw new DomainError('team_full', TEXT.teamFull);
      }
      // Read after the spot is claimed (the claim waits for a leader's division change, which
      // locks the team row): the team's division is its leader's as of now.
      const leaderDivision = (await readUserDivisions(trx, [team.leader_id])).get(team.leader_id) ?? null;
      const joined = await attachUserToTeam(
        trx,
        request.user_id,
        team.id,
        ctx.clock.now().toISOString(),
        leaderDivision,
      );
      if (!joined) {
        const sender = await findUserTeamId(trx, request.user_id);
        if (sender && sender.team_id === null) throw conflict(DIVISION_MESSAGES.acceptOtherDivision);
        staleRequest = request.id;
        throw conflict(TEXT.userJoinedElsewhere);
      }
      await deleteJoinRequestsOfUser(trx, request.user_id);
      return leftCompetitor(ctx, trx, request.user_id, { kind: 'user', id: request.user_id });
    });
  } catch (err) {
    // The sender is in another team now: the request can never succeed, so it goes.
    if (staleRequest !== null) await deleteJoinRequest(ctx.database.db, staleRequest);
    throw err;
  }
  ctx.bus.publish('teams');
  settled(ctx, [change]);
  return TEXT.memberAdded;
}

/**
 * For other modules (admin removing a user): detaches the user from their team inside the caller's
 * transaction with the same rules as Leave Team (leadership passes on, an emptied team is deleted).
 * A no-op for a teamless user. The caller publishes 'teams' after its transaction commits.
 */
export async function removeMembershipInTransaction(
  ctx: AppContext,
  trx: Executor,
  userId: number,
): Promise<void> {
  const departure = await departCurrentTeam(trx, userId);
  // The caller's commit is not seen here: the clean-up after it is the instance janitor's.
  if (departure) await leftCompetitor(ctx, trx, userId, { kind: 'team', id: departure.teamId });
}

/**
 * Admin removal of a team: members become teamless and its join requests go. Solves keep their
 * team_id, so the team's points leave the leaderboard and never become members' solo points.
 */
export async function deleteTeam(
  ctx: AppContext,
  teamId: number,
  actor: AuditActor = SYSTEM_ACTOR,
): Promise<void> {
  const at = ctx.clock.now();
  const change = await ctx.database.transaction(async (trx) => {
    const team = await findTeamById(trx, teamId);
    if (!team) throw notFound(TEXT.teamNotFound);
    await detachAllMembers(trx, teamId);
    await deleteJoinRequestsOfTeam(trx, teamId);
    await deleteTeamRow(trx, teamId);
    const left = await leftCompetitor(ctx, trx, null, { kind: 'team', id: teamId });
    await recordAudit(trx, {
      actor,
      action: 'team.remove',
      target: `team '${team.name}' (#${teamId})`,
      details: { members: team.member_count },
      at,
    });
    return left;
  });
  ctx.bus.publish('teams');
  settled(ctx, [change]);
}
