import type { AuditPage, AuditQuery, Role, integrityApi } from '@ctf/contract';
import type { Executor } from '../../db/schema.js';
import { REDACTED, challengeIdsOf, redactForMonitor } from './audit-redaction.js';
import { insertAuditRow, listAuditRows, listChallengeStates } from './audit.repo.js';

export { REDACTED };

/** Who acted: the admin's id and name (the name is copied: the entry outlives the account). */
export interface AuditActor {
  id: number | null;
  username: string;
}

/** The actor of writes made outside a request: the demo and bench seeds, tests calling services. */
export const SYSTEM_ACTOR: AuditActor = { id: null, username: '(system)' };

/** An edit's details: the fields that changed, each side of the change (flags redacted later). */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    was[key] = before[key];
    now[key] = after[key];
  }
  return { before: was, after: now };
}

export interface AuditInput {
  actor: AuditActor;
  action: integrityApi.AuditAction;
  /** What was acted on, as a person reads it: "challenge 'Web 101' (#4)", "user 'alice' (#9)". */
  target: string;
  /** Before/after of an edit, a reason, counts: anything JSON. Flags are redacted here. */
  details?: Record<string, unknown>;
  at: Date;
}

/** Keys whose values never reach the log: flags of every kind, secrets, tokens. */
const SECRET_KEY = /flag|secret|token|password/i;

/** A deep copy with every flag-like value replaced by REDACTED (arrays and nested objects too). */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        SECRET_KEY.test(k) && v !== null && v !== undefined ? REDACTED : redactSecrets(v),
      ]),
    );
  }
  return value;
}

/**
 * Writes one audit entry. Call it with the action's own transaction (docs/product.md §15: every admin
 * action writes one audit row in the same transaction), so an action and its entry commit or
 * roll back together. The site never edits or deletes entries.
 */
export async function recordAudit(trx: Executor, entry: AuditInput): Promise<void> {
  await insertAuditRow(trx, {
    created_at: entry.at.toISOString(),
    admin_id: entry.actor.id,
    admin_name: entry.actor.username,
    action: entry.action,
    target: entry.target,
    details: JSON.stringify(redactSecrets(entry.details ?? {})),
  });
}

/**
 * A page of the audit log, newest first (the Audit tab). An admin reads every entry whole; anyone
 * else (a monitor) reads it without environment values nor the content of challenges players
 * cannot see at `now` (audit-redaction.ts).
 */
export async function listAudit(
  db: Executor,
  query: AuditQuery,
  viewer: { role: Role; now: Date },
): Promise<AuditPage> {
  const rows = await listAuditRows(db, {
    admin: query.admin || undefined,
    action: query.action || undefined,
    beforeId: query.cursor === undefined ? undefined : Number(query.cursor),
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit).map((r) => ({
    _id: String(r.id),
    time: r.created_at,
    admin: r.admin_name,
    action: r.action,
    target: r.target,
    details: parseDetails(r.details),
  }));
  if (viewer.role === 'admin') return { rows: page, next_cursor: nextCursor(rows, query.limit) };
  const states = await listChallengeStates(db, [...new Set(page.flatMap(challengeIdsOf))]);
  const now = viewer.now.toISOString();
  const visible = (id: number) => {
    const c = states.get(id);
    return c !== undefined && c.is_active === 1 && (c.release_at === null || c.release_at <= now);
  };
  return {
    rows: page.map((e) => redactForMonitor(e, visible)),
    next_cursor: nextCursor(rows, query.limit),
  };
}

function nextCursor(rows: readonly { id: number }[], limit: number): string | null {
  return rows.length > limit ? String(rows[limit - 1]!.id) : null;
}

function parseDetails(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { value };
  } catch {
    return {};
  }
}
