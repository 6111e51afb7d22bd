/**
 * What both entries of the contract export (index.ts for the server and the tests, client.ts for
 * the web): the shapes as types, and the rules and texts that need no zod at run time. An entry's
 * own file adds its endpoints (zod schemas, or the web's method-and-path routes).
 */
export type { Division, DivisionInput } from './api/divisions.js';
export type { AdminSettings, EventSettings, EventSettingsInput, WriteupSettings } from './api/settings.js';
export {
  AFTER_END_MODES,
  LOGO_TYPES,
  SETTINGS_LIMITS,
  sniffLogoType,
  type AfterEnd,
  type LogoType,
} from './api/settings-rules.js';
export {
  DEFAULT_REGISTRATION,
  EMAIL_LINK_TTL_MS,
  EMAIL_MESSAGES,
  IDENTITY_KINDS,
  IDENTITY_MESSAGES,
  type Identity,
  type IdentityKind,
  PASSWORD_RULES,
  passwordProblem,
  REGISTRATION_LIMITS,
  REGISTRATION_MESSAGES,
  type RegistrationRules,
} from './api/accounts-rules.js';
export type { WebhookStatus } from './api/webhook.js';
export type { Award, AdminAward } from './api/awards.js';
export type {
  AdminInstance,
  EngineStatus,
  InstanceDefinition,
  InstanceDefinitionInput,
  InstancePort,
  InstanceState,
  PublishedPort,
} from './api/instances.js';
export {
  ADMIN_ONLY_INSTANCE_FIELDS,
  CAPABILITY_NAME,
  DEFAULT_INSTANCE_POLICY,
  NEVER_CAPABILITIES,
  instancePolicyProblem,
  type InstancePolicy,
  DEFAULT_INSTANCES_PER_TEAM,
  INSTANCE_DEFAULTS,
  INSTANCE_LIMITS,
  INSTANCE_MESSAGES,
  INSTANCE_PROTOCOLS,
  instanceAddress,
  instanceUrl,
  type InstanceProtocol,
} from './api/instances-rules.js';
export type { Announcement, AdminAnnouncement, AnnouncementInput } from './api/announcements.js';
export type { OAuthProvider, OAuthMessage, PopupProvider, LoginMethod } from './api/oauth.js';
export {
  OAUTH_PROVIDERS,
  OAUTH_BROADCAST_CHANNEL,
  POPUP_PROVIDERS,
  LOGIN_METHODS,
  orderLoginMethods,
} from './api/oauth.js';
export type { User, UserCompletion } from './api/users.js';
export type { ApiToken } from './api/tokens.js';
export { API_TOKEN_LIMITS, API_TOKEN_PREFIX } from './api/tokens-rules.js';
export {
  DEFAULT_TOKEN_SCOPES,
  TOKEN_MESSAGES,
  TOKEN_SCOPES,
  scopesForRole,
  tokenAllows,
  tokenRuleFor,
  type TokenRule,
  type TokenScope,
} from './api/token-scopes.js';
export type { Team, TeamListEntry, JoinRequest, TeamCompletion } from './api/teams.js';
export type { PublicChallenge, ChallengeDetail, ChallengeHint } from './api/challenges.js';
export type {
  LeaderboardEntry,
  LeaderboardRow,
  LeaderboardQuery,
  ScoreGraph,
  GraphSeries,
  CtftimeFeed,
} from './api/leaderboard.js';
export type {
  AdminChallenge,
  AdminSolution,
  SolutionInput,
  AdminFlag,
  AdminHint,
  AdminUser,
  AdminTeam,
  ChallengeInput,
  ChallengeInputParsed,
  ChallengeScoringInput,
  FlagInput,
  HintInput,
  ImportIssue,
  ImportResult,
  ScoreboardExportRow,
  SetupStatus,
  SolveExportRow,
} from './api/admin.js';
export type { SiteInfo } from './api/site.js';
export type {
  AdminWriteup,
  AdminWriteupQuery,
  MyWriteup,
  PublishedWriteup,
  WriteupFile,
} from './api/writeups.js';
export type {
  AuditEntry,
  AuditPage,
  AuditQuery,
  ModerateInput,
  SubmissionFilters,
  SubmissionPage,
  SubmissionQuery,
  SubmissionRow,
  Signal,
} from './api/integrity.js';
export * from './rules/constants.js';
export * from './rules/messages.js';
export * from './rules/rating.js';
export * from './rules/scoring.js';
export * from './rules/dynamic-scoring.js';
export * from './rules/countdown.js';
export * from './rules/plural.js';
export * from './rules/usernames.js';
export * from './rules/html-policy.js';
export * from './rules/markdown-budget.js';
export * from './rules/default-texts.js';
export * from './rules/writeups.js';
export { MarkdownScan, PdfScan, markdownFindingMessage, pdfFindingMessage } from './rules/writeup-scan.js';
export type { LiveEventData, LiveEventType } from './api/live-events.js';
export {
  LIVE_EVENT_TYPES,
  LIVE_EVENTS_PATH,
  LIVE_EVENT_REPLAY_MS,
  LIVE_EVENT_HEARTBEAT_MS,
  LIVE_EVENT_COALESCE_MS,
  TOO_MANY_STREAMS_MESSAGE,
  STREAMS_FULL_MESSAGE,
  LIVE_EVENT_RETRY_MS,
} from './api/live-events.js';
export {
  ROLES,
  STAFF_ROLES,
  isStaff,
  mayCall,
  rolesFor,
  seesEmails,
  seesSubmittedText,
  staffTableRoutes,
  type Role,
  type StaffRole,
} from './api/staff-roles.js';
