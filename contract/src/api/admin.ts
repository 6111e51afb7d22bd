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
import {
  DYNAMIC_DECAY_MAX,
  DYNAMIC_VALUE_MAX,
  SCORING_FUNCTIONS,
  dynamicScoringProblem,
} from '../rules/dynamic-scoring.js';

export {
  FILE_NAME_PATTERN,
  ZIP_MIME_TYPES,
  confirmDeleteText,
  fileNameProblem,
  looksLikeZip,
  uploadSummaryText,
  type DeletableThing,
} from './admin-rules.js';

const wholeNumber = (what: string) =>
  z.number({ error: `${what} must be a number` }).int(`${what} must be a whole number`);

/**
 * A challenge's scoring (issue 16): static (points from difficulty, the default) or dynamic with
 * CTFd's parameters; 1 <= minimum <= initial <= 10,000 and decay >= 0, whole numbers. A refusal
 * names its field (scoring.minimum, ...).
 */
export const ChallengeScoringInput = z.discriminatedUnion('type', [
  z.object({ type: z.literal('static') }),
  z
    .object({
      type: z.literal('dynamic'),
      function: z.enum(SCORING_FUNCTIONS),
      initial: wholeNumber('initial').min(1).max(DYNAMIC_VALUE_MAX),
      minimum: wholeNumber('minimum').min(1).max(DYNAMIC_VALUE_MAX),
      decay: wholeNumber('decay').min(0).max(DYNAMIC_DECAY_MAX),
    })
    .superRefine((s, ctx) => {
      const problem = dynamicScoringProblem(s);
      if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
    }),
]);
export type ChallengeScoringInput = z.infer<typeof ChallengeScoringInput>;

/** The admin view adds the flag and the scoring's parameters (the edit form starts from them). */
export const AdminChallenge = PublicChallenge.extend({ flag: z.string(), scoring: ChallengeScoringInput });
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
  /** Missing = static. */
  scoring: ChallengeScoringInput.optional(),
});
export type ChallengeInput = z.infer<typeof ChallengeInput>;

export const AdminUser = User;
export const AdminTeam = Team;
export const AdminEntry = z.object({ _id: IdString, username: z.string(), avatarUrl: z.string() });

const get = <R extends z.ZodType>(route: Route<'GET'>, response: R) =>
  endpoint({ ...route, body: undefined, response });
const post = <B extends z.ZodType>(route: Route<'POST'>, body: B) =>
  endpoint({ ...route, body, response: AckResponse });

export const getTeams = get(ROUTES.admin.getTeams, z.array(Team));
export const getUsers = get(ROUTES.admin.getUsers, z.array(User));
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

/** An ISO 8601 date and time with its offset (or Z), as Date can read it. */
const IsoDateTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date and time' });

/** Sets the scoreboard freeze (from that time the public sees the board as it was) or lifts it (null). */
export const freezeScoreboard = endpoint({
  ...ROUTES.admin.freezeScoreboard,
  body: z.object({ freeze_at: IsoDateTime.nullable() }),
  response: AckResponse.extend({ freeze_at: z.string().nullable() }),
});

/** One row of the scoreboard export: the leaderboard with ranks and what each competitor is. */
export const ScoreboardExportRow = z.object({
  pos: z.number(),
  kind: z.enum(['team', 'user']),
  name: z.string(),
  points: z.number(),
  solves: z.number(),
  last_solve_at: z.string(),
});
export type ScoreboardExportRow = z.infer<typeof ScoreboardExportRow>;
/** One credited solve: when, who, for which competitor, which challenge, its current value. */
export const SolveExportRow = z.object({
  time: z.string(),
  user: z.string(),
  team: z.string(),
  challenge: z.string(),
  points: z.number(),
});
export type SolveExportRow = z.infer<typeof SolveExportRow>;

/** The live scoreboard as CSV (streamed): pos, kind, name, points, solves, last_solve_at. */
export const exportScoreboardCsv = endpoint({
  ...ROUTES.admin.exportScoreboardCsv,
  body: undefined,
  response: z.string(),
});
/** Every solve as CSV (streamed): time, user, team, challenge, points. */
export const exportSolvesCsv = endpoint({
  ...ROUTES.admin.exportSolvesCsv,
  body: undefined,
  response: z.string(),
});
export const exportScoreboardJson = endpoint({
  ...ROUTES.admin.exportScoreboardJson,
  body: undefined,
  response: z.array(ScoreboardExportRow),
});
export const exportSolvesJson = endpoint({
  ...ROUTES.admin.exportSolvesJson,
  body: undefined,
  response: z.array(SolveExportRow),
});

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
  freezeScoreboard,
  exportScoreboardCsv,
  exportSolvesCsv,
  exportScoreboardJson,
  exportSolvesJson,
  ...INTEGRITY_ENDPOINTS,
] as const;
