import { FLAG_MAX_LENGTH } from '@ctf/contract';
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../lib/crypto.js';

/**
 * Per-team flags (issue 18, docs/decisions/0007-integrity.md). The author gives a base flag; the
 * flag a competitor (its team, or the user while teamless) must send is the base with a suffix of
 * TEAM_FLAG_SUFFIX_HEX hexadecimal digits put before its closing brace:
 *
 *   base `flag{s3cret}`  ->  `flag{s3cret_3f9a0c1d5e7b2a46}`
 *   base `s3cret`        ->  `s3cret_3f9a0c1d5e7b2a46`  (a base without a closing brace: at the end)
 *
 * suffix = the first 16 hex digits of HMAC-SHA256(key, "<challenge id>:<team|user>:<id>"), where the
 * key is HMAC-SHA256(SESSION_SECRET, TEAM_FLAG_KEY_LABEL): a key of its own, so no other signature
 * of the site can produce a suffix. Nothing derived is stored: each is computed when needed.
 */
export const TEAM_FLAG_SUFFIX_HEX = 16;
/** `_` and the suffix: a base may be at most FLAG_MAX_LENGTH minus this long. */
export const TEAM_FLAG_EXTRA_LENGTH = TEAM_FLAG_SUFFIX_HEX + 1;
export const TEAM_FLAG_BASE_MAX_LENGTH = FLAG_MAX_LENGTH - TEAM_FLAG_EXTRA_LENGTH;
const TEAM_FLAG_KEY_LABEL = 'ctf-platform per-team flag key v1';

/** Who a per-team flag belongs to: the team, or the user while it has none (as solves count). */
export interface Competitor {
  kind: 'team' | 'user';
  id: number;
}

export function competitorOfUser(user: { id: number; team_id: number | null }): Competitor {
  return user.team_id === null ? { kind: 'user', id: user.id } : { kind: 'team', id: user.team_id };
}

const keys = new Map<string, Buffer>();

/** The per-team flag key derived from the server secret (kept per secret: one HMAC, once). */
export function teamFlagKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = createHmac('sha256', secret).update(TEAM_FLAG_KEY_LABEL).digest();
    keys.set(secret, key);
  }
  return key;
}

function suffix(key: Buffer, challengeId: number, competitor: Competitor): string {
  return createHmac('sha256', key)
    .update(`${challengeId}:${competitor.kind}:${competitor.id}`)
    .digest('hex')
    .slice(0, TEAM_FLAG_SUFFIX_HEX);
}

/** The base split where the suffix goes: before a closing brace, else at the end. */
function split(base: string): { head: string; tail: string } {
  const trimmed = base.trim();
  return trimmed.endsWith('}') ? { head: trimmed.slice(0, -1), tail: '}' } : { head: trimmed, tail: '' };
}

/** The competitor's flag for this challenge and base. */
export function teamFlag(key: Buffer, challengeId: number, base: string, competitor: Competitor): string {
  const { head, tail } = split(base);
  return `${head}_${suffix(key, challengeId, competitor)}${tail}`;
}

/**
 * The flag gate's comparison for a per-team challenge: the competitor's own flag, compared in
 * constant time (one HMAC per submission; nothing else is read).
 */
export function teamFlagMatcher(
  key: Buffer,
  challengeId: number,
  base: string,
): (submitted: string, competitor: Competitor) => boolean {
  return (submitted, competitor) =>
    constantTimeEqual(submitted.trim(), teamFlag(key, challengeId, base, competitor));
}

/**
 * The suffix of a text shaped like a per-team flag of this base (head, `_`, 16 lower-case hex
 * digits, tail), or null: which competitor it belongs to is then found by deriving theirs.
 */
export function teamFlagSuffixOf(base: string, text: string): string | null {
  const { head, tail } = split(base);
  const t = text.trim();
  if (t.length !== head.length + TEAM_FLAG_EXTRA_LENGTH + tail.length) return null;
  if (!t.startsWith(`${head}_`) || !t.endsWith(tail)) return null;
  const hex = t.slice(head.length + 1, head.length + 1 + TEAM_FLAG_SUFFIX_HEX);
  return /^[0-9a-f]+$/.test(hex) ? hex : null;
}

/** Whose flag a suffix is, among these competitors (null: nobody's, a guess). */
export function ownerOfSuffix<C extends Competitor>(
  key: Buffer,
  challengeId: number,
  hex: string,
  competitors: readonly C[],
): C | null {
  return competitors.find((c) => suffix(key, challengeId, c) === hex) ?? null;
}
