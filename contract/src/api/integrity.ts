import { z } from 'zod';
import { Cursor, PageLimit, Timestamp, endpoint } from './common.js';
import { ROUTES } from './routes.js';

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

export const INTEGRITY_ENDPOINTS = [getAudit] as const;
