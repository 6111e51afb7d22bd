import type { integrityApi } from '@ctf/contract';

type AuditEntry = integrityApi.AuditEntry;

/** What stands in for a value a reader may not see. */
export const REDACTED = '[redacted]';

// What a monitor reads of the audit log (docs/decisions/0014-least-privilege.md). A monitor reads
// play, not answers: the content of a challenge that players cannot see yet (unreleased, or
// hidden) and every instance environment value are redacted, their names kept. Admins read all.

/** The fields of a challenge that a player sees in the list anyway (kept for a monitor). */
const PUBLIC_FIELDS = new Set(['name', 'category', 'difficulty', 'points', 'is_active']);

/** The challenge ids an entry's target names: "challenge 'Web' (#4)", several for a schedule. */
export function challengeIdsOf(entry: Pick<AuditEntry, 'action' | 'target'>): number[] {
  if (!entry.action.startsWith('challenge.')) return [];
  return [...entry.target.matchAll(/\(#(\d+)\)/g)].map((m) => Number(m[1]));
}

/** Every environment value replaced, names kept; instance definitions stored as JSON text too. */
export function redactEnvironment(value: unknown, key = ''): unknown {
  if (typeof value === 'string' && key === 'instance') {
    try {
      return JSON.stringify(redactEnvironment(JSON.parse(value) as unknown));
    } catch {
      return value;
    }
  }
  if (Array.isArray(value)) return value.map((v) => redactEnvironment(v));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  if (key === 'env') return Object.fromEntries(entries.map(([k]) => [k, REDACTED]));
  return Object.fromEntries(entries.map(([k, v]) => [k, redactEnvironment(v, k)]));
}

/** An edit's sides with every field but the public ones redacted (keys kept). */
function redactContent(details: Record<string, unknown>): Record<string, unknown> {
  const side = (v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).map(([k, x]) => [
            k,
            PUBLIC_FIELDS.has(k) || x === null ? x : REDACTED,
          ]),
        )
      : v;
  return Object.fromEntries(
    Object.entries(details).map(([k, v]) => [k, k === 'before' || k === 'after' ? side(v) : v]),
  );
}

/**
 * An entry as a monitor reads it: environment values always redacted, and the content of a
 * challenge that is not visible to players now (unreleased, hidden, or gone) redacted too.
 * `visible` answers whether players see a challenge now.
 */
export function redactForMonitor(entry: AuditEntry, visible: (id: number) => boolean): AuditEntry {
  const ids = challengeIdsOf(entry);
  const envFree = redactEnvironment(entry.details) as Record<string, unknown>;
  const details = ids.every(visible) ? envFree : redactContent(envFree);
  return { ...entry, details };
}
