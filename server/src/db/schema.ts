import type { Role } from '@ctf/contract';
import type { Generated, Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type {
  RateLimitsTable,
  LiveEventsTable,
  LiveEventCounterTable,
  AnnouncementsTable,
  FirstBloodNoticesTable,
  WebhookOutboxTable,
  WebhookStateTable,
  AuditLogTable,
  SubmissionsTable,
  InstancesTable,
  InstancePortsTable,
  JobLeasesTable,
} from './schema.operations.js';

export type * from './schema.operations.js';

/**
 * The database as Kysely sees it. Names are snake_case; times are ISO 8601 UTC strings
 * (sortable as text on both dialects); booleans are 0/1 integers (portable).
 */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** nameKey(username): unique, so look-alike names collide (docs/product.md §11). */
  username_key: string;
  avatar_url: string;
  email: string;
  /** 1 exactly when role is 'admin': written together (db/user-role.ts), read by the counting filter. */
  is_admin: number;
  /** The staff role (issue 31, migration 0017_r); player unless set. */
  role: Generated<Role>;
  team_id: number | null;
  /** When the user joined their current team: the longest-standing member inherits leadership. */
  team_joined_at: string | null;
  created_at: string;
  /** The user's division (migration 0009); null: none. */
  division_id: number | null;
  /** Left out of every public view, like an admin (issue 18); reversible. */
  hidden: Generated<number>;
  /** Cannot log in; sessions end at the next request. */
  banned: Generated<number>;
  /** The admin's reason for the latest hide or ban (the audit log keeps every one). */
  moderation_reason: Generated<string | null>;
  /** 1: a monitor or author an admin marked as competing (counted like a participant). */
  competing: Generated<number>;
}

export interface IdentitiesTable {
  id: Generated<number>;
  user_id: number;
  provider: string;
  provider_user_id: string;
  created_at: string;
  /** The way in's name as its owner knows it (handle, address); '' before migration 0019_e. */
  name: Generated<string>;
}

/** E-mail and password sign-in (migration 0019_e): one per account that has a password. */
export interface EmailCredentialsTable {
  user_id: number;
  /** Lower-cased; unique. */
  email: string;
  /** Argon2id (PHC string). */
  password_hash: string;
  /** null until the confirmation link is followed. */
  confirmed_at: string | null;
  created_at: string;
}

/** The confirmation and reset links' tokens: only the SHA-256 stored; used once. */
export interface EmailTokensTable {
  token_hash: string;
  user_id: number;
  purpose: 'confirm' | 'reset';
  expires_at: string;
}

/** Mail waiting to be sent (the webhook outbox's pattern); times in ms since the epoch. */
export interface MailOutboxTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  body_text: string;
  body_html: string;
  created_at: number;
  next_attempt_at: number;
  attempts: number;
  claimed_until: number | null;
  claim_token: string | null;
  last_error: string | null;
}

/** Addresses an admin blocked (lower-cased): no sign-up or sign-in with them. */
export interface BlockedEmailsTable {
  email: string;
  created_at: string;
}

export interface SessionsTable {
  /** sha256 of the cookie token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  expires_at: string;
  created_at: string;
}

/** Personal API tokens (issue 31): like a session, a hash and a user; named, and listed to its owner. */
export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** sha256 of the token (`ctf_...`); the token itself is never stored. */
  token_hash: string;
  created_at: string;
  /** Every token expires (migration 0019); null only in a row older than that, and then refused. */
  expires_at: string | null;
  /** Written at most once a minute per token (not at every request). */
  last_used_at: string | null;
  /** Its scopes, space-separated ('read play'): contract api/token-scopes.ts. */
  scopes: Generated<string>;
}

export interface OAuthStatesTable {
  /** sha256 of the state value; single use. */
  state_hash: string;
  provider: string;
  code_verifier: string;
  expires_at: string;
  /** A sign-in started to link a way in to this signed-in user (migration 0019_e); null: a login. */
  link_user_id: Generated<number | null>;
}

export interface TeamsTable {
  id: Generated<number>;
  name: string;
  name_key: string;
  leader_id: number;
  /** The cap is claimed here with a conditional update (docs/product.md §14). */
  member_count: number;
  created_at: string;
  /** Left out of every public view with the solves credited to it (issue 18). */
  hidden: Generated<number>;
  /** Its members cannot log in while on it. */
  banned: Generated<number>;
  moderation_reason: Generated<string | null>;
}

export interface JoinRequestsTable {
  id: Generated<number>;
  team_id: number;
  user_id: number;
  created_at: string;
}

export interface ChallengesTable {
  id: Generated<number>;
  name: string;
  description: string;
  category: string;
  difficulty: string;
  written_by: string;
  points: number;
  is_active: number;
  /** Wrong attempts a user may make; null: unlimited (0008_a). */
  max_attempts: number | null;
  /** Before this instant the challenge does not exist for participants; null: released. */
  release_at: string | null;
  created_at: string;
  updated_at: string;
  /** 'static' | 'dynamic' (migration 0011); the other scoring_* columns are set for dynamic only. */
  scoring_type: Generated<string>;
  scoring_function: string | null;
  scoring_initial: number | null;
  scoring_minimum: number | null;
  scoring_decay: number | null;
  /** 1: the one static flag is a base, each competitor's flag derived from it (0012_b). */
  per_team: Generated<number>;
  /** 1: the challenge page offers the competitor its own per-team flag. */
  per_team_on_page: Generated<number>;
  /** The container per team as JSON (contract InstanceDefinition), or null (0014_i). */
  instance: Generated<string | null>;
}

/** One accepted flag: 'static' (exact), 'case_insensitive' or 'regex' (RE2, whole string). */
export interface ChallengeFlagsTable {
  id: Generated<number>;
  challenge_id: number;
  position: number;
  type: string;
  content: string;
}

/** Attempts a user has claimed against a challenge that has max_attempts. */
export interface ChallengeAttemptsTable {
  user_id: number;
  challenge_id: number;
  used: number;
}

export interface HintsTable {
  id: Generated<number>;
  challenge_id: number;
  position: number;
  title: string;
  /** Sanitised HTML rendered from the author's Markdown. */
  content: string;
  cost: number;
}

export interface HintUnlocksTable {
  id: Generated<number>;
  hint_id: number;
  user_id: number;
  /** The unlocker's team at that moment, or null. No foreign key: it never moves (like solves). */
  team_id: number | null;
  /** 't<team id>' or 'u<user id>': unique per hint, so a competitor pays once. */
  competitor: string;
  created_at: string;
}

/** Points an admin gave (issue 31), positive or negative; migration 0016_a. */
export interface AwardsTable {
  id: Generated<number>;
  /** The user who got it, or null for an award to a team. */
  user_id: number | null;
  /** The team it counts for: the team given it, or the user's team at that moment (never moves). */
  team_id: number | null;
  points: number;
  reason: string;
  created_at: string;
}

export interface ChallengePrerequisitesTable {
  challenge_id: number;
  requires_id: number;
}

export interface FilesTable {
  id: Generated<number>;
  name: string;
  size: number;
  created_at: string;
}

export interface ChallengeFilesTable {
  challenge_id: number;
  file_id: number;
}

/** A challenge's official solution (issue 32); migration 0018_w. */
export interface ChallengeSolutionsTable {
  challenge_id: number;
  /** The Markdown as the author wrote it. */
  content: string;
  /** Its rendered, sanitised HTML (server/src/lib/markdown.ts). */
  html: string;
  visibility: 'hidden' | 'solved' | 'after_end';
}

export interface ChallengeSolutionFilesTable {
  challenge_id: number;
  file_id: number;
}

/** A competitor's writeup of a challenge (issue 32): a link or a file; one per (challenge, competitor). */
export interface WriteupsTable {
  id: Generated<number>;
  challenge_id: number;
  /** 't<team id>' or 'u<user id>' (as hint unlocks). */
  competitor: string;
  team_id: number | null;
  /** Who handed it in last (null once that account is removed). */
  user_id: number | null;
  url: string | null;
  file_name: string | null;
  file_size: number | null;
  file_type: string | null;
  /** The stored bytes' name under the upload folder's writeups/ folder. */
  storage_key: string | null;
  submitted_at: string;
  reviewed: Generated<number>;
  published: Generated<number>;
}

export interface SolvesTable {
  id: Generated<number>;
  user_id: number;
  challenge_id: number;
  /** The solver's team at that moment, or null. No foreign key: a removed team's solves stay its own. */
  team_id: number | null;
  created_at: string;
}

export interface RatingsTable {
  user_id: number;
  challenge_id: number;
  rating: number;
  created_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

/** A timed open or close that happened (migration 0009); the key names it and its scheduled time. */
export interface SiteTransitionsTable {
  key: string;
  action: string;
  applied_at: string;
}

export interface DivisionsTable {
  id: Generated<number>;
  name: string;
  name_key: string;
  /** Comma-separated lower-case e-mail domains; empty: anyone may pick it. */
  email_domains: string;
  position: number;
}

/** Correct flags after the end in practice mode: never scored, never on a public view. */
export interface PracticeSolvesTable {
  id: Generated<number>;
  user_id: number;
  challenge_id: number;
  created_at: string;
}

/** Who owns a challenge besides admins (migration 0019_o): its creator, or whom an admin named. */
export interface ChallengeOwnersTable {
  challenge_id: number;
  user_id: number;
}

export interface Database {
  users: UsersTable;
  identities: IdentitiesTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
  oauth_states: OAuthStatesTable;
  teams: TeamsTable;
  join_requests: JoinRequestsTable;
  challenges: ChallengesTable;
  files: FilesTable;
  challenge_files: ChallengeFilesTable;
  challenge_owners: ChallengeOwnersTable;
  challenge_solutions: ChallengeSolutionsTable;
  challenge_solution_files: ChallengeSolutionFilesTable;
  writeups: WriteupsTable;
  challenge_flags: ChallengeFlagsTable;
  challenge_attempts: ChallengeAttemptsTable;
  hints: HintsTable;
  hint_unlocks: HintUnlocksTable;
  awards: AwardsTable;
  challenge_prerequisites: ChallengePrerequisitesTable;
  solves: SolvesTable;
  ratings: RatingsTable;
  settings: SettingsTable;
  rate_limits: RateLimitsTable;
  site_transitions: SiteTransitionsTable;
  divisions: DivisionsTable;
  practice_solves: PracticeSolvesTable;
  live_events: LiveEventsTable;
  live_event_counter: LiveEventCounterTable;
  announcements: AnnouncementsTable;
  first_blood_notices: FirstBloodNoticesTable;
  webhook_outbox: WebhookOutboxTable;
  webhook_state: WebhookStateTable;
  audit_log: AuditLogTable;
  submissions: SubmissionsTable;
  instances: InstancesTable;
  instance_ports: InstancePortsTable;
  job_leases: JobLeasesTable;
  email_credentials: EmailCredentialsTable;
  email_tokens: EmailTokensTable;
  mail_outbox: MailOutboxTable;
  blocked_emails: BlockedEmailsTable;
}

export type DB = Kysely<Database>;
/** Repo functions take either the database or a transaction first. */
export type Executor = Kysely<Database> | Transaction<Database>;

/** The moderation columns are read where moderation matters (modules/moderation), not with every row. */
type ModerationColumns = 'hidden' | 'banned' | 'moderation_reason' | 'competing';
export type UserRow = Omit<Selectable<UsersTable>, ModerationColumns>;
export type TeamRow = Omit<Selectable<TeamsTable>, ModerationColumns>;
export type ChallengeRow = Selectable<ChallengesTable>;
export type NewUser = Insertable<UsersTable>;
