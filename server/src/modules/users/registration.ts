import { REGISTRATION_MESSAGES } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { constantTimeEqual, hmac } from '../../lib/crypto.js';
import { DomainError } from '../../lib/errors.js';
import { readEventState } from '../event-state/event-state.service.js';

/**
 * Who may make a new account (the settings' `registration`): open or closed, limited to verified
 * e-mail domains, behind a registration code. Existing accounts always sign in; these rules apply
 * only where a sign-in would create an account.
 *
 * The code is asked once, on the login page, before the account is made: a right code earns the
 * browser a pass (an HttpOnly cookie of an expiry and an HMAC of the code under the site's secret),
 * which the sign-in that creates the account must bring. A changed code voids every pass.
 */

/** How long a pass for the registration code lasts. */
export const REGISTRATION_PASS_TTL_MS = 60 * 60 * 1000;

function passMac(ctx: AppContext, code: string, expires: number): string {
  return hmac(ctx.config.sessionSecret, 'registration-pass', code, expires);
}

/**
 * The pass for a code the person typed, or a 403 naming the wrong code. The caller limits the
 * attempts per address first.
 */
export async function registrationPassFor(ctx: AppContext, typed: string): Promise<string> {
  const { code } = (await readEventState(ctx)).settings.registration;
  if (code === null) return '';
  if (!constantTimeEqual(typed.trim(), code)) throw new DomainError('forbidden', REGISTRATION_MESSAGES.code);
  const expires = ctx.clock.now().getTime() + REGISTRATION_PASS_TTL_MS;
  return `${expires}.${passMac(ctx, code, expires)}`;
}

function passValid(ctx: AppContext, pass: string | undefined, code: string): boolean {
  const m = /^(\d{1,15})\.([\w-]{43})$/.exec(pass ?? '');
  if (!m) return false;
  const expires = Number(m[1]);
  return expires > ctx.clock.now().getTime() && constantTimeEqual(m[2]!, passMac(ctx, code, expires));
}

function domainOf(email: string): string {
  return email
    .slice(email.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();
}

/**
 * Refuses a new account the settings do not admit, with a 403 naming why: registration closed,
 * no verified address at an allowed domain (any provider's verified address counts), or no pass
 * for the registration code.
 */
export async function checkRegistration(
  ctx: AppContext,
  verifiedEmails: readonly string[],
  pass: string | undefined,
): Promise<void> {
  const rules = (await readEventState(ctx)).settings.registration;
  if (!rules.open) throw new DomainError('forbidden', REGISTRATION_MESSAGES.closed);
  const allowed = rules.allowedEmailDomains;
  if (allowed.length > 0 && !verifiedEmails.some((e) => e.includes('@') && allowed.includes(domainOf(e)))) {
    throw new DomainError('forbidden', REGISTRATION_MESSAGES.domains(allowed));
  }
  if (rules.code !== null && !passValid(ctx, pass, rules.code)) {
    // The login page answers this by asking for the code (once), then the sign-in is tried again.
    throw new DomainError('forbidden', REGISTRATION_MESSAGES.code);
  }
}
