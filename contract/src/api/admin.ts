import { z } from 'zod';
import { AckResponse, IdInput, IdString, endpoint } from './common.js';
import { ROLES } from './staff-roles.js';
import { ROUTES, type Route } from './routes.js';
import { Team } from './teams.js';
import { User } from './users.js';
import { SETTINGS_ENDPOINTS } from './settings.js';
import { INTEGRITY_ENDPOINTS } from './integrity.js';
import { ANNOUNCEMENT_ADMIN_ENDPOINTS } from './announcements.js';
import { WEBHOOK_ADMIN_ENDPOINTS } from './webhook.js';
import { AWARD_ADMIN_ENDPOINTS } from './awards.js';
import { INSTANCE_ADMIN_ENDPOINTS } from './instances.js';
import { WRITEUP_ADMIN_ENDPOINTS } from './writeups.js';
import { ACCOUNT_ADMIN_ENDPOINTS } from './accounts.js';
import { DIVISION_ADMIN_ENDPOINTS, DivisionFilter } from './divisions.js';
import { FILE_NAME_MAX_LENGTH } from '../rules/constants.js';
import { AdminChallenge, ChallengeInput, UpdateChallengeInput } from './admin-challenges.js';

export {
  FILE_NAME_PATTERN,
  ZIP_MIME_TYPES,
  confirmDeleteText,
  IMPORT_ERRORS_IN_MESSAGE,
  fileNameProblem,
  importRefusedText,
  looksLikeZip,
  uploadSummaryText,
  type DeletableThing,
} from './admin-rules.js';
export {
  AdminChallenge,
  CHALLENGE_OWNERS_MAX,
  ChallengeOwner,
  AdminSolution,
  SolutionInput,
  AdminFlag,
  AdminHint,
  ChallengeInput,
  ChallengeScoringInput,
  FlagInput,
  FlagType,
  HintInput,
  flagsOf,
  type ChallengeInputParsed,
} from './admin-challenges.js';

/** The moderation state admins see in their user and team lists (issue 18). */
const Moderation = {
  hidden: z.boolean(),
  banned: z.boolean(),
  /** The reason given for the latest hide or ban, null when none. */
  moderation_reason: z.string().nullable(),
};
/** `competing`: a monitor or author an admin marked as counting in public (players always do). */
export const AdminUser = User.extend(Moderation).extend({ competing: z.boolean() });
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
/** Issue 31: gives a user a staff role; the last admin keeps the admin role (409). */
export const setRole = post(
  ROUTES.admin.setRole,
  z.object({ user_id: IdInput, role: z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` }) }),
);
/** Whether a monitor or author counts in public like a participant (admins only, audited). */
export const setCompeting = post(
  ROUTES.admin.setCompeting,
  z.object({ user_id: IdInput, competing: z.boolean({ error: 'competing must be true or false' }) }),
);
export const promoteAdmin = post(
  ROUTES.admin.promoteAdmin,
  z.object({ username: z.string().min(1).max(200) }),
);
export const getUploads = get(ROUTES.admin.getUploads, z.array(z.string()));
export const fetchChallenges = get(ROUTES.admin.fetchChallenges, z.array(AdminChallenge));
export const updateChallenge = post(ROUTES.admin.updateChallenge, UpdateChallengeInput);
export const createChallenge = post(ROUTES.admin.createChallenge, ChallengeInput);
export const toggleStatus = post(ROUTES.admin.toggleStatus, z.object({ challenge_id: IdInput }));
export const deleteChallenge = post(ROUTES.admin.deleteChallenge, z.object({ challenge_id: IdInput }));
/** A wave: the release time (or null: released now) of several challenges at once. */
export const scheduleRelease = post(
  ROUTES.admin.scheduleRelease,
  z.object({
    challenge_ids: z.array(IdInput).min(1, 'Choose at least one challenge').max(500),
    release_at: z.iso.datetime({ offset: true, error: 'release_at must be an ISO 8601 time' }).nullable(),
  }),
);
/** Multipart with one field 'file'; the body is not JSON so it has no schema here. */
export const upload = endpoint({
  ...ROUTES.admin.upload,
  body: undefined,
  consumes: 'multipart/form-data',
  response: AckResponse,
});
export const deleteFile = post(
  ROUTES.admin.deleteFile,
  z.object({ filename: z.string().min(1).max(FILE_NAME_MAX_LENGTH) }),
);
export const getSolvers = get(
  ROUTES.admin.getSolvers,
  z.object({
    acknowledge: z.boolean(),
    solvers: z.record(z.string(), z.array(z.string())),
    /** By challenge name: the username whose solve is the first blood (challenges with one only). */
    first_bloods: z.record(z.string(), z.string()),
  }),
);
const competitorName = z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters');
/** Exactly one of the ways to name a competitor. */
const oneCompetitor = (fields: readonly string[]) => (v: Record<string, unknown>) =>
  fields.filter((f) => v[f] !== undefined).length === 1;

/**
 * A competitor's per-team flag, shown to an admin on demand (and written to the audit log, without
 * the flag). The competitor by id (`team_id`, or `user_id`: that user's team, or the user if
 * teamless), or by `competitor`, a team name or a username, which is refused when it names two
 * competitors (team names and usernames are one namespace, but a database may hold older pairs).
 */
export const revealTeamFlag = endpoint({
  ...ROUTES.admin.revealTeamFlag,
  body: z
    .object({
      challenge_id: IdInput,
      competitor: competitorName.optional(),
      team_id: IdInput.optional(),
      user_id: IdInput.optional(),
    })
    .refine(oneCompetitor(['competitor', 'team_id', 'user_id']), {
      message: 'competitor is required (a name, or team_id or user_id; one of them)',
      path: ['competitor'],
    }),
  response: AckResponse.extend({ competitor: z.string(), flag: z.string() }),
});

/**
 * The same for an author's service (a challenge built to read its players' flags): authenticated
 * by `Authorization: Bearer <ADMIN_API_TOKEN>`, never by a session; refused while no token is set.
 * `team` (or `team_id`, `user_id`) names the competitor like `competitor` above.
 */
export const serviceTeamFlag = endpoint({
  ...ROUTES.admin.serviceTeamFlag,
  body: undefined,
  query: z
    .object({
      challenge: IdInput,
      team: competitorName.optional(),
      team_id: IdInput.optional(),
      user_id: IdInput.optional(),
    })
    .refine(oneCompetitor(['team', 'team_id', 'user_id']), {
      message: 'team is required (a name, or team_id or user_id; one of them)',
      path: ['team'],
    }),
  response: z.object({ challenge: IdString, team: z.string(), flag: z.string() }),
});

/** Endpoints under /api/admin/ that take the admin API token instead of an admin session. */
export const TOKEN_ENDPOINTS = [serviceTeamFlag] as const;

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

/**
 * The live scoreboard as CSV (streamed): pos, kind, name, points, solves, last_solve_at. The exports
 * take `?division=NAME` (issue 19): that division's competitors (positions within it) and solves.
 */
export const exportScoreboardCsv = endpoint({
  ...ROUTES.admin.exportScoreboardCsv,
  body: undefined,
  query: DivisionFilter,
  response: z.string(),
  produces: 'text/csv',
});
/** Every solve as CSV (streamed): time, user, team, challenge, points. */
export const exportSolvesCsv = endpoint({
  ...ROUTES.admin.exportSolvesCsv,
  body: undefined,
  query: DivisionFilter,
  response: z.string(),
  produces: 'text/csv',
});
export const exportScoreboardJson = endpoint({
  ...ROUTES.admin.exportScoreboardJson,
  body: undefined,
  query: DivisionFilter,
  response: z.array(ScoreboardExportRow),
});
export const exportSolvesJson = endpoint({
  ...ROUTES.admin.exportSolvesJson,
  body: undefined,
  query: DivisionFilter,
  response: z.array(SolveExportRow),
});

/** One finding of a challenge.yml import: the archive path it concerns, its line (null: none). */
export const ImportIssue = z.object({
  file: z.string(),
  line: z.number().int().nullable(),
  message: z.string(),
});
export type ImportIssue = z.infer<typeof ImportIssue>;

/**
 * What an import (or its dry run) came to: the challenge names created and updated (would be, on a
 * dry run), warnings (unknown keys, ...) and every error. Any error: nothing was written.
 */
export const ImportResult = z.object({
  acknowledge: z.boolean(),
  message: z.string(),
  created: z.array(z.string()),
  updated: z.array(z.string()),
  warnings: z.array(ImportIssue),
  errors: z.array(ImportIssue),
});
export type ImportResult = z.infer<typeof ImportResult>;

/**
 * challenge.yml import (ctfcli spec 0.1): multipart with one field 'file', a ZIP of challenge
 * folders. `?dry_run=1` checks and reports without writing. An archive with errors answers 400 with
 * the same shape.
 */
export const importChallenges = endpoint({
  ...ROUTES.admin.importChallenges,
  body: undefined,
  consumes: 'multipart/form-data',
  query: z.object({ dry_run: z.enum(['0', '1', 'true', 'false']).optional() }),
  response: ImportResult,
});
/** Every challenge as challenge.yml folders with their files, in one ZIP. */
export const exportChallenges = endpoint({
  ...ROUTES.admin.exportChallenges,
  body: undefined,
  response: z.string(),
  produces: 'application/zip',
});

/**
 * The event's static archive (issue 32): every page and file of the event as it stands, a ZIP
 * with index.html at its root that opens from the file system (docs/deploy.md, "After the event").
 */
export const eventArchive = endpoint({
  ...ROUTES.admin.eventArchive,
  body: undefined,
  response: z.string(),
  produces: 'application/zip',
});

/**
 * The admin panel's set-up checklist, shown while the site has no challenges: how many it has,
 * which sign-in methods work and the exact redirect URLs to register with each provider (from
 * PUBLIC_URL), and whether the Discord webhook is configured.
 */
export const SetupStatus = z.object({
  challenges: z.number().int(),
  publicUrl: z.string(),
  login: z.object({ discord: z.boolean(), github: z.boolean(), local: z.boolean() }),
  redirectUrls: z.object({ discord: z.string(), github: z.string() }),
  webhook: z.boolean(),
});
export type SetupStatus = z.infer<typeof SetupStatus>;
export const getSetup = get(ROUTES.admin.getSetup, SetupStatus);

/**
 * Imports the sample challenges (docs/sample-challenges: one import, like the Import / Export
 * tab's). Refused (409) once the site has any challenge; an import error answers 400 with the
 * result, as the import does.
 */
export const addSampleChallenges = endpoint({
  ...ROUTES.admin.addSampleChallenges,
  body: z.object({}).strict(),
  response: ImportResult,
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
  promoteAdmin,
  setRole,
  setCompeting,
  getUploads,
  fetchChallenges,
  updateChallenge,
  createChallenge,
  toggleStatus,
  deleteChallenge,
  scheduleRelease,
  upload,
  deleteFile,
  getSolvers,
  revealTeamFlag,
  getSiteInfo,
  updateSiteInfo,
  freezeScoreboard,
  exportScoreboardCsv,
  exportSolvesCsv,
  exportScoreboardJson,
  exportSolvesJson,
  importChallenges,
  exportChallenges,
  eventArchive,
  getSetup,
  addSampleChallenges,
  ...SETTINGS_ENDPOINTS,
  ...DIVISION_ADMIN_ENDPOINTS,
  ...INTEGRITY_ENDPOINTS,
  ...ANNOUNCEMENT_ADMIN_ENDPOINTS,
  ...WEBHOOK_ADMIN_ENDPOINTS,
  ...AWARD_ADMIN_ENDPOINTS,
  ...ACCOUNT_ADMIN_ENDPOINTS,
  ...INSTANCE_ADMIN_ENDPOINTS,
  ...WRITEUP_ADMIN_ENDPOINTS,
] as const;
