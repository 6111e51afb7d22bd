import { z } from 'zod';
import { IdInput, IdString, MessageResponse, Timestamp, endpoint } from './common.js';
import { ROUTES } from './routes.js';
import { Award } from './awards.js';
import { TEAM_NAME_MAX_LENGTH } from '../rules/constants.js';

export const TeamName = z
  .string({ error: 'Team name is required' })
  .trim()
  .min(1, 'Team name is required')
  .max(TEAM_NAME_MAX_LENGTH, `Team name must be at most ${TEAM_NAME_MAX_LENGTH} characters`)
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'Team name may not contain control characters');

/**
 * Server texts of the team calls. The web keys its colours on MESSAGES.requestSent,
 * MESSAGES.teamCreated and an update message containing 'success' (docs/product.md §8); these others are
 * shown as they come.
 */
export const TEAM_MESSAGES = {
  nameTaken: 'A team with this name already exists',
  /** Team names and usernames are one namespace: a team may not read as a player's name. */
  nameIsUsername: 'A player already has this name: choose another team name',
  alreadyInTeam: 'You are already in a team',
  notInTeam: 'You are not in a team',
  notYourTeam: 'That is not your team',
  teamNotFound: 'Team not found',
  teamFull: 'Team is full',
  alreadyRequested: 'You have already requested to join this team',
  leaderOnly: 'Only the team leader can do this',
  leaderCannotBeRemoved: 'The team leader cannot be removed',
  memberNotFound: 'No member with that name in your team',
  memberRemoved: 'Member removed from the team.',
  memberAdded: 'Member added to the team.',
  requestNotFound: 'Join request not found: it was already handled or withdrawn',
  requestNotForYourTeam: 'That join request is not for your team',
  badChecksum: 'Invalid join request checksum',
  userJoinedElsewhere: 'That user already joined another team',
  leftTeam: 'You left the team.',
  leftAndDeleted: 'You left the team. It had no members left and was deleted.',
  teamDeleted: 'Team deleted.',
} as const;

export const JoinRequest = z.object({ _id: IdString, checksum: z.string(), sender_name: z.string() });
export type JoinRequest = z.infer<typeof JoinRequest>;

export const TeamCompletion = z.object({
  id: IdString,
  memberName: z.string(),
  points: z.number(),
  name: z.string(),
  time: Timestamp,
});
export type TeamCompletion = z.infer<typeof TeamCompletion>;

/** docs/product.md §3 Team. join_requests is filled for the leader only. */
export const Team = z.object({
  _id: IdString,
  name: z.string(),
  team_leader: z.string(),
  members: z.array(z.string()),
  join_requests: z.array(JoinRequest),
  completions: z.array(TeamCompletion),
  /** Awards that count for this team (issue 31: given to it, or to a member while on it), oldest first. */
  awards: z.array(Award),
  memberCount: z.number(),
  spotsLeft: z.number(),
});
export type Team = z.infer<typeof Team>;

export const TeamListEntry = z.object({ name: z.string(), memberCount: z.number(), spotsLeft: z.number() });
export type TeamListEntry = z.infer<typeof TeamListEntry>;

export const TeamNameBody = z.object({ team_name: TeamName });

export const teamInfo = endpoint({
  ...ROUTES.teams.teamInfo,
  body: undefined,
  response: Team.nullable(),
});
export const teamList = endpoint({
  ...ROUTES.teams.teamList,
  body: undefined,
  response: z.array(TeamListEntry),
});
export const createTeam = endpoint({
  ...ROUTES.teams.createTeam,
  body: TeamNameBody,
  response: MessageResponse,
});
export const requestTeam = endpoint({
  ...ROUTES.teams.requestTeam,
  body: TeamNameBody,
  response: MessageResponse,
});
export const updateTeam = endpoint({
  ...ROUTES.teams.updateTeam,
  body: TeamNameBody,
  response: MessageResponse,
});
/** Leave Team: the body names the caller's own team. */
export const replaceLeader = endpoint({
  ...ROUTES.teams.replaceLeader,
  body: z.object({ team_data: z.object({ name: z.string().max(200) }) }),
  response: MessageResponse,
});
export const removeMember = endpoint({
  ...ROUTES.teams.removeMember,
  body: z.object({ member_username: z.string().min(1).max(200) }),
  response: MessageResponse,
});
export const addMember = endpoint({
  ...ROUTES.teams.addMember,
  body: z.object({ request_id: IdInput, checksum: z.string().min(1).max(200) }),
  response: MessageResponse,
});
