import { z } from 'zod';
import { AckResponse, IdInput, IdString, endpoint } from './common.js';
import { Category, Difficulty, PublicChallenge } from './challenges.js';
import { Team } from './teams.js';
import { User } from './users.js';
import {
  CHALLENGE_AUTHOR_MAX_LENGTH,
  CHALLENGE_DESCRIPTION_MAX_LENGTH,
  CHALLENGE_NAME_MAX_LENGTH,
  FILE_NAME_MAX_LENGTH,
  FLAG_MAX_LENGTH,
} from '../rules/constants.js';

/** MIME types browsers give ZIP archives (Windows says x-zip-compressed). */
export const ZIP_MIME_TYPES: readonly string[] = [
  'application/zip',
  'application/x-zip-compressed',
  'application/x-zip',
  'application/zip-compressed',
  'multipart/x-zip',
];

/** SPEC.md §5: a chosen file counts as a ZIP by its MIME type or a .zip name (the server also checks its bytes). */
export function looksLikeZip(name: string, type: string): boolean {
  return name.toLowerCase().endsWith('.zip') || ZIP_MIME_TYPES.includes(type.toLowerCase());
}

/** Characters a stored file name may use: it becomes a file on disk and a download URL. */
export const FILE_NAME_PATTERN = /^[A-Za-z0-9 ._()-]+$/;

/**
 * Why a file name cannot be stored as it is, or null when it can. Names are refused rather than
 * silently renamed, so what the admin attaches to a challenge is exactly what they uploaded.
 */
export function fileNameProblem(name: string): string | null {
  if (name === '') return 'The file has no name.';
  if (/[/\\]/.test(name)) return 'The file name must not contain path parts (/ or \\).';
  if (name.length > FILE_NAME_MAX_LENGTH)
    return `The file name must be at most ${FILE_NAME_MAX_LENGTH} characters.`;
  if (name.startsWith('.')) return 'The file name must not begin with a dot.';
  if (name.trim() !== name) return 'The file name must not begin or end with a space.';
  if (!FILE_NAME_PATTERN.test(name)) {
    return 'The file name may only use letters, digits, spaces and . _ - ( ) characters.';
  }
  return null;
}

/** SPEC.md §5 delete confirmations of the admin panel. */
export type DeletableThing = 'user' | 'team' | 'admin' | 'challenge' | 'file';
export const confirmDeleteText = (thing: DeletableThing): string =>
  `Are you sure you want to delete this ${thing}?`;

/** SPEC.md §8 upload summary, e.g. 'Uploaded 1 of 2 files successfully.' */
export const uploadSummaryText = (succeeded: number, total: number): string =>
  `Uploaded ${succeeded} of ${total} files successfully.`;

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

export const AdminUser = User;
export const AdminTeam = Team;
export const AdminEntry = z.object({ _id: IdString, username: z.string(), avatarUrl: z.string() });

const get = <R extends z.ZodType>(path: string, response: R) =>
  endpoint({ method: 'GET', path, body: undefined, response });
const post = <B extends z.ZodType>(path: string, body: B) =>
  endpoint({ method: 'POST', path, body, response: AckResponse });

export const getTeams = get('/api/admin/get_teams', z.array(Team));
export const getUsers = get('/api/admin/get_users', z.array(User));
export const fetchAdmins = get('/api/admin/fetch_admins', z.array(User));
export const forceUpdate = get('/api/admin/ctf/force_update', AckResponse);
export const removeTeam = post('/api/admin/remove_team', z.object({ team_id: IdInput }));
export const removeUser = post('/api/admin/remove_user', z.object({ user_id: IdInput }));
export const removeAdmin = post(
  '/api/admin/remove_admin',
  z.object({ username: z.string().min(1).max(200) }),
);
export const getUploads = get('/api/admin/ctf/get_uploads', z.array(z.string()));
export const fetchChallenges = get('/api/admin/ctf/fetch_challenges', z.array(AdminChallenge));
export const updateChallenge = post(
  '/api/admin/ctf/update_challenge',
  ChallengeInput.extend({ challenge_id: IdInput }),
);
export const createChallenge = post('/api/admin/ctf/create_challenge', ChallengeInput);
export const toggleStatus = post('/api/admin/ctf/toggle_status', z.object({ challenge_id: IdInput }));
export const deleteChallenge = post('/api/admin/ctf/delete_challenge', z.object({ challenge_id: IdInput }));
/** Multipart with one field 'file'; the body is not JSON so it has no schema here. */
export const upload = endpoint({
  method: 'POST',
  path: '/api/admin/ctf/upload',
  body: undefined,
  response: AckResponse,
});
export const deleteFile = post(
  '/api/admin/ctf/delete_file',
  z.object({ filename: z.string().min(1).max(FILE_NAME_MAX_LENGTH) }),
);
export const getSolvers = get(
  '/api/admin/ctf/get_solvers',
  z.object({ acknowledge: z.boolean(), solvers: z.record(z.string(), z.array(z.string())) }),
);
export const getSiteInfo = get('/api/admin/get_site_info', z.object({ activated: z.boolean() }));
export const updateSiteInfo = post('/api/admin/update_site_info', z.object({ activated: z.boolean() }));

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
] as const;
