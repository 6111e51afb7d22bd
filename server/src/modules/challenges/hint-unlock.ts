import { MESSAGES } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { DomainError, notFound } from '../../lib/errors.js';
import { isSiteActive } from '../event-state/event-state.service.js';
import { findHint, recordHintUnlock } from '../hints/hints.service.js';
import { openChallengeForSubmission } from './challenge-gate.js';

/**
 * Unlocks a hint for the caller's competitor and answers its content (POST /api/ctf/unlock-hint):
 * play, like a flag, so it passes the challenge's gate here, above the hints it records.
 * Refused while the site is inactive (admins included: they see every hint's content already)
 * and for a challenge the caller may not open; recorded once per competitor (hints module).
 */
export async function unlockHint(
  ctx: AppContext,
  user: UserRow,
  hintId: number,
): Promise<{ message: string; content: string }> {
  if (!(await isSiteActive(ctx))) throw new DomainError('site_inactive', MESSAGES.siteInactive);
  const hint = await findHint(ctx, hintId);
  if (!hint) throw notFound('Hint not found');
  await openChallengeForSubmission(ctx, user, hint.challenge_id);
  if (user.is_admin === 1) return { message: MESSAGES.hintUnlocked, content: hint.content };
  await recordHintUnlock(ctx, user, hint);
  return { message: MESSAGES.hintUnlocked, content: hint.content };
}
