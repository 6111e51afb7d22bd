import { seesEmails, type Award, type Role, type User, type UserCompletion } from '@ctf/contract';
import { toApiId } from '../../lib/ids.js';

/** A user row with what docs/product.md's User shape shows of their team. */
export interface UserWithTeam {
  id: number;
  username: string;
  avatar_url: string;
  email: string;
  is_admin: number;
  role: Role;
  team_id: number | null;
  team_name: string | null;
  team_leader_id: number | null;
  division_id: number | null;
}

/** A solve as docs/product.md §3 shows it in a user's completions. */
export function presentCompletion(solve: {
  challenge_id: number;
  name: string;
  created_at: string;
}): UserCompletion {
  return { id: toApiId(solve.challenge_id), name: solve.name, time: solve.created_at };
}

/** docs/product.md §3 User: the team's name or 'None', completions and the ids of rated challenges. */
export function presentUser(
  u: UserWithTeam,
  completions: UserCompletion[],
  ratedChallengeIds: number[],
  awards: Award[],
  /** The division's name (null: none); undefined while the site has no divisions (no field). */
  division?: string | null,
): User {
  const onTeam = u.team_id !== null && u.team_name !== null;
  return {
    _id: toApiId(u.id),
    username: u.username,
    avatarUrl: u.avatar_url,
    email: u.email,
    team: onTeam ? u.team_name! : 'None',
    team_id: onTeam ? toApiId(u.team_id!) : null,
    is_leader: onTeam && u.team_leader_id === u.id,
    is_admin: u.is_admin === 1,
    role: u.role,
    completions,
    user_rates: ratedChallengeIds.map(toApiId),
    awards,
    ...(division === undefined ? {} : { division }),
  };
}

/**
 * A user as a staff member of this role may read it: only an admin sees e-mail addresses (issue
 * 31); the field stays, empty, so the shape is one.
 */
export function presentUserFor(viewer: Role, user: User): User {
  return seesEmails(viewer) ? user : { ...user, email: '' };
}
