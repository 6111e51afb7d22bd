import { z } from 'zod';
import { AckResponse, Cursor, PageLimit, Timestamp, endpoint } from './common.js';
import { ROUTES } from './routes.js';

import { EVIDENCE_IDS_MAX, SUBMISSION_RESULTS } from './integrity-rules.js';

export {
  AUDIT_ACTIONS,
  EVIDENCE_IDS_MAX,
  SUBMISSION_RESULTS,
  SUBMITTED_TEXT_MAX,
  type AuditAction,
  type SubmissionResultName,
} from './integrity-rules.js';

/**
 * Integrity and moderation (issue 18): the admin audit log, and (below) the submission log,
 * signals, hide and ban. Admins only; every endpoint is in ADMIN_ENDPOINTS (authorization matrix).
 */

/** One admin action: who, when, what; details hold before/after of edits with flags redacted. */
export const AuditEntry = z.object({
  _id: z.string(),
  time: Timestamp,
  admin: z.string(),
  action: z.string(),
  target: z.string(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

const optionalText = (max: number) =>
  z.string().trim().max(max, `must be at most ${max} characters`).optional();

export const AuditQuery = z.object({
  admin: optionalText(200),
  action: optionalText(100),
  cursor: Cursor.optional(),
  limit: PageLimit,
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditPage = z.object({ rows: z.array(AuditEntry), next_cursor: z.string().nullable() });
export type AuditPage = z.infer<typeof AuditPage>;

export const getAudit = endpoint({
  ...ROUTES.integrity.getAudit,
  body: undefined,
  query: AuditQuery,
  response: AuditPage,
});

export const MODERATION_REASON_MAX_LENGTH = 500;

/**
 * Hide (out of every public view), ban (no login; sessions end at the next request), and their
 * reversals. A reason is required to hide or ban; it is kept with the target and in the audit log.
 */
export const ModerateInput = z
  .object({
    target: z.enum(['user', 'team'], { error: "must be 'user' or 'team'" }),
    name: z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
    action: z.enum(['hide', 'unhide', 'ban', 'unban'], {
      error: "must be 'hide', 'unhide', 'ban' or 'unban'",
    }),
    reason: z
      .string()
      .trim()
      .max(MODERATION_REASON_MAX_LENGTH, `must be at most ${MODERATION_REASON_MAX_LENGTH} characters`)
      .optional()
      .default(''),
  })
  .superRefine((v, ctx) => {
    if ((v.action === 'hide' || v.action === 'ban') && v.reason === '')
      ctx.addIssue({ code: 'custom', path: ['reason'], message: `is required to ${v.action}` });
  });
export type ModerateInput = z.infer<typeof ModerateInput>;

export const moderate = endpoint({
  ...ROUTES.integrity.moderate,
  body: ModerateInput,
  response: AckResponse,
});

export const SubmissionResult = z.enum(SUBMISSION_RESULTS, {
  error: `must be one of ${SUBMISSION_RESULTS.join(', ')}`,
});

const isoTime = z
  .string()
  .trim()
  .max(40)
  .refine((v) => !Number.isNaN(Date.parse(v)), 'must be a date and time (ISO 8601)')
  .transform((v) => new Date(v).toISOString());

/** The Submissions tab's filters; every one optional, combined with AND. */
export const SubmissionFilters = z.object({
  user: optionalText(200),
  team: optionalText(200),
  challenge: optionalText(200),
  result: SubmissionResult.optional(),
  /** Text the wrong attempt contains (case-sensitive). */
  q: optionalText(200),
  from: isoTime.optional(),
  to: isoTime.optional(),
  /** Only these rows (a signal's evidence, from the Integrity tab): ids separated by commas. */
  ids: z
    .string()
    .trim()
    .regex(
      new RegExp(`^[1-9][0-9]{0,9}(,[1-9][0-9]{0,9}){0,${EVIDENCE_IDS_MAX - 1}}$`),
      `must be at most ${EVIDENCE_IDS_MAX} submission ids separated by commas`,
    )
    .transform((v) => v.split(',').map(Number))
    .optional(),
});
export type SubmissionFilters = z.infer<typeof SubmissionFilters>;

export const SubmissionQuery = SubmissionFilters.extend({ cursor: Cursor.optional(), limit: PageLimit });
export type SubmissionQuery = z.infer<typeof SubmissionQuery>;

export const SubmissionRow = z.object({
  _id: z.string(),
  time: Timestamp,
  username: z.string(),
  /** The user's team at that moment, 'None' when teamless. */
  team: z.string(),
  challenge: z.string(),
  result: SubmissionResult,
  /** The text submitted, cut to 200 characters: wrong attempts only. */
  submitted: z.string().optional(),
  address: z.string(),
});
export type SubmissionRow = z.infer<typeof SubmissionRow>;

export const SubmissionPage = z.object({ rows: z.array(SubmissionRow), next_cursor: z.string().nullable() });
export type SubmissionPage = z.infer<typeof SubmissionPage>;

export const getSubmissions = endpoint({
  ...ROUTES.integrity.getSubmissions,
  body: undefined,
  query: SubmissionQuery,
  response: SubmissionPage,
});

/** Every row the filters match, newest first, as CSV (streamed). */
export const getSubmissionsCsv = endpoint({
  ...ROUTES.integrity.getSubmissionsCsv,
  body: undefined,
  query: SubmissionFilters,
  response: z.string(),
  produces: 'text/csv',
});

/**
 * A hint for a human, never acted on automatically: (a) same_address_solves, two competitors
 * solving one challenge within 5 minutes from one address (IPv4 /32, IPv6 /64); (b) shared_address,
 * accounts of different competitors submitting from one address; (c) other_flag, a wrong attempt
 * that is another challenge's flag, or other_team_flag, another competitor's per-team flag (certain
 * evidence naming both); (d) burst, many wrong attempts over many challenges in a minute.
 */
export const Signal = z.object({
  kind: z.enum(['same_address_solves', 'shared_address', 'other_flag', 'other_team_flag', 'burst']),
  summary: z.string(),
  competitors: z.array(z.string()),
  submission_ids: z.array(z.string()),
});
export type Signal = z.infer<typeof Signal>;

export const getSignals = endpoint({
  ...ROUTES.integrity.getSignals,
  body: undefined,
  response: z.array(Signal),
});

export const INTEGRITY_ENDPOINTS = [
  getAudit,
  moderate,
  getSubmissions,
  getSubmissionsCsv,
  getSignals,
] as const;
