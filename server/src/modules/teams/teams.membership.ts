import type { Executor } from '../../db/schema.js';
import {
  deleteJoinRequestsOfTeam,
  deleteTeamRow,
  detachAllMembers,
  detachUserFromTeam,
  findUserTeamId,
  listMembers,
  releaseTeamSpot,
  setTeamLeader,
} from './teams.repo.js';

export interface Departure {
  teamId: number;
  /** The team had no members left and was deleted. */
  teamDeleted: boolean;
}

/**
 * Takes a user out of one team inside the caller's transaction: frees the spot, hands leadership to
 * the longest-standing remaining member (join time, then id) when the leader goes, and deletes the
 * team when nobody is left. Solves keep their team_id (docs/product.md §12). Answers null when the user
 * was not (or no longer) in that team.
 *
 * NOTE: the user row is written first and the team row second; releaseTeamSpot's RETURNING reads the
 * leader after any concurrent departure committed, so two members leaving at once cannot leave the
 * team led by someone who already left.
 */
export async function departTeam(trx: Executor, userId: number, teamId: number): Promise<Departure | null> {
  if (!(await detachUserFromTeam(trx, userId, teamId))) return null;
  const after = await releaseTeamSpot(trx, teamId);
  if (!after) return { teamId, teamDeleted: false };
  if (after.member_count > 0 && after.leader_id !== userId) return { teamId, teamDeleted: false };
  const [next] = after.member_count > 0 ? await listMembers(trx, [teamId]) : [];
  if (next) {
    await setTeamLeader(trx, teamId, next.id);
    return { teamId, teamDeleted: false };
  }
  await detachAllMembers(trx, teamId);
  await deleteJoinRequestsOfTeam(trx, teamId);
  await deleteTeamRow(trx, teamId);
  return { teamId, teamDeleted: true };
}

/** Like departTeam for whatever team the user is in now; null when the user is teamless. */
export async function departCurrentTeam(trx: Executor, userId: number): Promise<Departure | null> {
  // A concurrent leave or removal can move the user between our read and our write: read again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await findUserTeamId(trx, userId);
    if (!row || row.team_id === null) return null;
    const departure = await departTeam(trx, userId, row.team_id);
    if (departure) return departure;
  }
  throw new Error(`could not detach user ${userId} from their team`);
}
