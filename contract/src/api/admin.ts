import { z } from 'zod';
import { AckResponse, IdInput, IdString, endpoint } from './common.js';
import { ROUTES, type Route } from './routes.js';
import { Category, Difficulty, PublicChallenge } from './challenges.js';
import { Team } from './teams.js';
import { User } from './users.js';
import { INTEGRITY_ENDPOINTS } from './integrity.js';
import {
  CHALLENGE_AUTHOR_MAX_LENGTH,
  CHALLENGE_DESCRIPTION_MAX_LENGTH,
  CHALLENGE_NAME_MAX_LENGTH,
  FILE_NAME_MAX_LENGTH,
  FLAG_MAX_LENGTH,
} from '../rules/constants.js';

export {
  FILE_NAME_PATTERN,
  ZIP_MIME_TYPES,
  confirmDeleteText,
  fileNameProblem,
  looksLikeZip,
  uploadSummaryText,
  type DeletableThing,
} from './admin-rules.js';

export const AdminChallenge = PublicChallenge.extend({ flag: z.string() });
export type AdminChallenge = z.infer<typeof AdminChallenge>;

const required = (what: string, max: number) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .max(max, `${what} must be at most ${max} characters`);

/** The challenge form (SPEC.md §5): points are accepted but ignored; the server derives them. */
export const ChallengeInput = z.object({
  name: required('Name', CHALLENGE_NAME_MAX_LENGTH),
  description: z.string().max(CHALLENGE_DESCRIPTION_MAX_LENGTH).optional().default(''),
  category: Category,
  difficulty: Difficulty,
  written_by: required('Author', CHALLENGE_AUTHOR_MAX_LENGTH),
  flag: required('Flag', FLAG_MAX_LENGTH),
  points: z.unknown().optional(),
  files: z.array(z.string().max(FILE_NAME_MAX_LENGTH)).max(50).optional().default([]),
});
export type ChallengeInput = z.infer<typeof ChallengeInput>;

/** The moderation state admins see in their user and team lists (issue 18). */
const Moderation = {
  hidden: z.boolean(),
  banned: z.boolean(),
  /** The reason given for the latest hide or ban, null when none. */
  moderation_reason: z.string().nullable(),
};
export const AdminUser = User.extend(Moderation);
export type AdminUser = z.infer<typeof AdminUser>;
export const AdminTeam = Team.extend(Moderation);
export type AdminTeam = z.infer<typeof AdminTeam>;
export const AdminEntry = z.object({ _id: IdString, username: z.string(), avatarUrl: z.string() });

const get = <R extends z.ZodType>(route: Route<'GET'>, response: R) =>
  endpoint({ ...route, body: undefined, response });
const post = <B extends z.ZodType>(route: Route<'POST'>, body: B) =>
  endpoint({ ...route, body, response: AckResponse });

export const getTeams = get(ROUTES.admin.getTeams, z.array(AdminTeam));
export const getUsers = get(ROUTES.admin.getUsers, z.array(AdminUser));
export const fetchAdmins = get(ROUTES.admin.fetchAdmins, z.array(User));
export const forceUpdate = get(ROUTES.admin.forceUpdate, AckResponse);
export const removeTeam = post(ROUTES.admin.removeTeam, z.object({ team_id: IdInput }));
export const removeUser = post(ROUTES.admin.removeUser, z.object({ user_id: IdInput }));
export const removeAdmin = post(ROUTES.admin.removeAdmin, z.object({ username: z.string().min(1).max(200) }));
export const getUploads = get(ROUTES.admin.getUploads, z.array(z.string()));
export const fetchChallenges = get(ROUTES.admin.fetchChallenges, z.array(AdminChallenge));
export const updateChallenge = post(
  ROUTES.admin.updateChallenge,
  ChallengeInput.extend({ challenge_id: IdInput }),
);
export const createChallenge = post(ROUTES.admin.createChallenge, ChallengeInput);
export const toggleStatus = post(ROUTES.admin.toggleStatus, z.object({ challenge_id: IdInput }));
export const deleteChallenge = post(ROUTES.admin.deleteChallenge, z.object({ challenge_id: IdInput }));
/** Multipart with one field 'file'; the body is not JSON so it has no schema here. */
export const upload = endpoint({
  ...ROUTES.admin.upload,
  body: undefined,
  response: AckResponse,
});
export const deleteFile = post(
  ROUTES.admin.deleteFile,
  z.object({ filename: z.string().min(1).max(FILE_NAME_MAX_LENGTH) }),
);
export const getSolvers = get(
  ROUTES.admin.getSolvers,
  z.object({ acknowledge: z.boolean(), solvers: z.record(z.string(), z.array(z.string())) }),
);
export const getSiteInfo = get(ROUTES.admin.getSiteInfo, z.object({ activated: z.boolean() }));
export const updateSiteInfo = post(ROUTES.admin.updateSiteInfo, z.object({ activated: z.boolean() }));

/** Every admin endpoint, so the authorization matrix test can walk them all. */
export const ADMIN_ENDPOINTS = [
  getTeams,
  getUsers,
  fetchAdmins,
  forceUpdate,
  removeTeam,
  removeUser,
  removeAdmin,
  getUploads,
  fetchChallenges,
  updateChallenge,
  createChallenge,
  toggleStatus,
  deleteChallenge,
  upload,
  deleteFile,
  getSolvers,
  getSiteInfo,
  updateSiteInfo,
  ...INTEGRITY_ENDPOINTS,
] as const;
