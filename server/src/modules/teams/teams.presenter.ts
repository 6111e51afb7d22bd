import {
  MAX_TEAM_SIZE,
  type Award,
  type JoinRequest,
  type Team,
  type TeamCompletion,
  type TeamListEntry,
} from '@ctf/contract';
import type { TeamRow } from '../../db/schema.js';
import { toApiId } from '../../lib/ids.js';
import type { JoinRequestRow, MemberRow, TeamSolveRow } from './teams.repo.js';

/** docs/product.md §3 Team. `members` are usernames, longest-standing first. */
export function presentTeam(
  team: TeamRow,
  members: readonly MemberRow[],
  leaderName: string,
  joinRequests: readonly JoinRequest[],
  completions: readonly TeamCompletion[],
  awards: readonly Award[],
): Team {
  return {
    _id: toApiId(team.id),
    name: team.name,
    team_leader: leaderName,
    members: members.map((m) => m.username),
    join_requests: [...joinRequests],
    completions: [...completions],
    awards: [...awards],
    memberCount: team.member_count,
    spotsLeft: Math.max(0, MAX_TEAM_SIZE - team.member_count),
  };
}

export function presentJoinRequest(row: JoinRequestRow, checksum: string): JoinRequest {
  return { _id: toApiId(row.id), checksum, sender_name: row.sender_name };
}

/**
 * A team's completions (docs/product.md §12): each challenge once, credited to the first solve recorded
 * with the team. `solves` must be oldest first.
 */
export function presentCompletions(solves: readonly TeamSolveRow[]): TeamCompletion[] {
  const seen = new Set<number>();
  const completions: TeamCompletion[] = [];
  for (const s of solves) {
    if (seen.has(s.challenge_id)) continue;
    seen.add(s.challenge_id);
    completions.push({
      id: toApiId(s.challenge_id),
      memberName: s.solver_name,
      points: s.points,
      name: s.challenge_name,
      time: s.created_at,
    });
  }
  return completions;
}

export function presentListEntry(row: { name: string; member_count: number }): TeamListEntry {
  return {
    name: row.name,
    memberCount: row.member_count,
    spotsLeft: Math.max(0, MAX_TEAM_SIZE - row.member_count),
  };
}
