import type { Generated } from 'kysely';

/**
 * The operational tables (rate limits, the live stream, announcements, the Discord outbox, the audit
 * and submission logs, instances and job leases), part of the Database of schema.ts: split out only
 * to keep that file readable. Same conventions: snake_case, ISO 8601 UTC times, 0/1 booleans.
 */
export interface RateLimitsTable {
  key: string;
  window_start: number;
  count: number;
}

/** The live event stream's log (migration 0007_a): the last 10 minutes are kept. */
export interface LiveEventsTable {
  id: number;
  type: string;
  /** The event's JSON data. */
  data: string;
  /** Milliseconds since the epoch. */
  at: number;
}

/** One row (id 1): the last live event id handed out. */
export interface LiveEventCounterTable {
  id: number;
  last_id: number;
}

/** An announcement (migration 0007_b): Markdown body and its sanitised rendering. */
export interface AnnouncementsTable {
  id: Generated<number>;
  title: string;
  body: string;
  body_html: string;
  pinned: number;
  created_at: string;
  updated_at: string;
}

/** A challenge whose first blood was announced (migration 0007_c): at most one per challenge. */
export interface FirstBloodNoticesTable {
  challenge_id: number;
  solve_id: number;
  created_at: string;
  /** 1 while a first blood scored during a freeze waits for the lift to be announced (0012_d). */
  held: Generated<number>;
}

/** The Discord webhook's outbox (migration 0007_d); times in ms since the epoch. */
export interface WebhookOutboxTable {
  id: Generated<number>;
  kind: string;
  /** The execute-webhook JSON body, ready to send. */
  payload: string;
  created_at: number;
  next_attempt_at: number;
  attempts: number;
  /** Until when a process holds the message (its lease); null when free. */
  claimed_until: number | null;
  claim_token: string | null;
  last_error: string | null;
  /** What the message is about (`announcement:<id>`), so it can be withdrawn; null for others. */
  ref: string | null;
}

/** One row (id 1): what the admin panel shows of the webhook. */
export interface WebhookStateTable {
  id: number;
  last_success_at: string | null;
  last_error: string | null;
}

/** One admin action (issue 18); details is JSON with flags redacted. Never updated or deleted. */
export interface AuditLogTable {
  id: Generated<number>;
  created_at: string;
  /** No foreign key: the entry outlives the admin's account. */
  admin_id: number | null;
  admin_name: string;
  action: string;
  target: string;
  details: string;
}

/** One flag attempt (issue 18). Names are copied at the moment of the attempt. */
export interface SubmissionsTable {
  id: Generated<number>;
  created_at: string;
  user_id: number;
  username: string;
  team_id: number | null;
  team_name: string | null;
  challenge_id: number;
  challenge_name: string;
  /** correct | wrong | rate_limited | already_solved | no_attempts_left */
  result: string;
  /** The submitted text cut to 200 characters, for wrong attempts only (null otherwise). */
  submitted: string | null;
  address: string;
  /** A wrong attempt equal to another challenge's flag: that challenge (a cheating signal). */
  matched_challenge_id: Generated<number | null>;
  /** A wrong attempt equal to another competitor's per-team flag: that competitor's name (0012_b). */
  matched_competitor: Generated<string | null>;
}

/** A competitor's container of one challenge (0014_i); times in ms since the epoch. */
export interface InstancesTable {
  id: Generated<number>;
  /** null once the challenge is deleted: the janitor removes the container and the row. */
  challenge_id: number | null;
  competitor_kind: 'team' | 'user';
  competitor_id: number;
  started_by: number | null;
  /** starting | running | failed | stopping */
  state: string;
  container_id: string | null;
  /** JSON: [{port, protocol, hostPort}] */
  ports: string;
  /** The engine's message of a failed pull or start. */
  error: string | null;
  created_at: number;
  expires_at: number;
  max_expires_at: number;
}

export interface InstancePortsTable {
  host_port: number;
  instance_id: number;
}

/** A named lease one process holds at a time (the instance janitor's leadership). */
export interface JobLeasesTable {
  name: string;
  holder: string;
  until: number;
}
