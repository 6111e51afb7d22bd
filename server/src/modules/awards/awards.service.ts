import type { AdminAward, Award, awardsApi } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { notFound } from '../../lib/errors.js';
import { toApiId, toApiIdOrNull } from '../../lib/ids.js';
import { recordAudit, type AuditActor } from '../audit/audit.service.js';
import {
  currentAwardPosition,
  deleteAwardRow,
  findAward,
  insertAward,
  listAwardRows,
  listAwardsOf,
  listBoardAwards,
  readAwardsSince,
  type AwardFeedPosition,
  type AwardRow,
  type BoardAward,
} from './awards.repo.js';

export type { AwardFeedPosition, AwardRow, BoardAward };

/**
 * Awards (issue 31): points an admin gives a user or a team, with a reason. The score board applies
 * a new one like a new solve (the feed below, bus topic `awards-added`); a deletion rebuilds it
 * (topic `awards`). Every process hears both topics on the bus, and reads the rows themselves.
 */

const target = (row: { id: number }, who: string) => `award #${row.id} to ${who}`;

/** Gives an award, with its audit row in the same transaction; answers its id. */
export async function giveAward(
  ctx: AppContext,
  input: awardsApi.GiveAwardBody,
  actor: AuditActor,
): Promise<string> {
  const userId = input.user_id ?? null;
  const teamId = userId === null ? (input.team_id ?? null) : null;
  const id = await ctx.database.transaction(async (trx) => {
    const created = await insertAward(trx, {
      userId,
      teamId,
      points: input.points,
      reason: input.reason,
      createdAt: ctx.clock.now().toISOString(),
    });
    if (created === undefined) throw notFound(userId !== null ? 'User not found' : 'Team not found');
    await recordAudit(trx, {
      actor,
      action: 'award.give',
      target: target({ id: created }, userId !== null ? `user #${userId}` : `team #${teamId}`),
      details: { points: input.points, reason: input.reason },
      at: ctx.clock.now(),
    });
    return created;
  });
  ctx.bus.publish('awards-added');
  await ctx.domainEvents.emit('award.changed', { awardId: id });
  return toApiId(id);
}

/** Deletes an award (it stops counting everywhere), audited with what it was. */
export async function deleteAward(ctx: AppContext, awardId: number, actor: AuditActor): Promise<void> {
  await ctx.database.transaction(async (trx) => {
    const row = await findAward(trx, awardId);
    if (!row || !(await deleteAwardRow(trx, awardId))) throw notFound('Award not found');
    await recordAudit(trx, {
      actor,
      action: 'award.delete',
      target: target(row, row.user_id !== null ? `user #${row.user_id}` : `team #${row.team_id}`),
      details: { points: row.points, reason: row.reason, time: row.created_at },
      at: ctx.clock.now(),
    });
  });
  ctx.bus.publish('awards');
  await ctx.domainEvents.emit('award.changed', { awardId });
}

/** Every award for the admin panel, newest first. */
export async function listAwardsForAdmin(ctx: AppContext): Promise<AdminAward[]> {
  const rows = await listAwardRows(ctx.database.db);
  return rows.map((r) => ({
    _id: toApiId(r.id),
    user_id: toApiIdOrNull(r.user_id),
    user: r.username,
    team_id: toApiIdOrNull(r.team_id),
    team: r.team_name,
    points: r.points,
    reason: r.reason,
    time: r.created_at,
  }));
}

const present = (r: AwardRow): Award => ({ points: r.points, reason: r.reason, time: r.created_at });

async function awardsBy(
  ctx: AppContext,
  column: 'user_id' | 'team_id',
  ids: readonly number[] | 'all',
): Promise<Map<number, Award[]>> {
  const byId = new Map<number, Award[]>();
  for (const row of await listAwardsOf(ctx.database.db, column, ids)) {
    const id = row[column]!;
    byId.set(id, [...(byId.get(id) ?? []), present(row)]);
  }
  return byId;
}

/** The awards given to each of these users, oldest first (user info, the admin's user list). */
export async function listAwardsOfUsers(
  ctx: AppContext,
  userIds: readonly number[] | 'all',
): Promise<Map<number, Award[]>> {
  return awardsBy(ctx, 'user_id', userIds);
}

/**
 * The awards that count for each of these teams (given to it, or to a member while on it), oldest
 * first (team info, the admin's team list).
 */
export async function listAwardsOfTeams(
  ctx: AppContext,
  teamIds: readonly number[],
): Promise<Map<number, Award[]>> {
  return awardsBy(ctx, 'team_id', teamIds);
}

/** Where the awards stand now (for a reader about to make a full read: taken before it). */
export async function currentAwardFeed(ctx: AppContext): Promise<AwardFeedPosition> {
  return currentAwardPosition(ctx.database.db);
}

/** The awards recorded since a position (the board applies them like new solves). */
export async function readAwardFeed(
  ctx: AppContext,
  after: AwardFeedPosition,
): Promise<{ position: AwardFeedPosition; awards: BoardAward[]; consistent: boolean }> {
  return readAwardsSince(ctx.database.db, after);
}

/** Every award with its reason, oldest first (the solves export). */
export async function listAwardsForExport(ctx: AppContext): Promise<AwardRow[]> {
  return (await listAwardRows(ctx.database.db)).reverse();
}

/** Every award before the cutoff, for a full build of the board. */
export async function listAwardsForBoard(ctx: AppContext, cutoff: string | null): Promise<BoardAward[]> {
  return listBoardAwards(ctx.database.db, cutoff);
}
