import { EMAIL_LINK_TTL_MS, EMAIL_MESSAGES, passwordProblem } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/connect.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { DomainError } from '../../lib/errors.js';
import { readEventState } from '../event-state/event-state.service.js';
import { endSessionsOfUsers } from '../auth/sessions.service.js';
import { checkRegistration } from '../users/registration.js';
import { insertNamedUser, nameTaken, setVerifiedEmail, userIdWithEmail } from '../users/users.service.js';
import {
  deleteExpiredTokens,
  deleteTokensOfUser,
  findCredentialsByEmail,
  findCredentialsOfUser,
  insertCredentials,
  insertEmailToken,
  isBlocked,
  peekEmailToken,
  takeEmailToken,
  updateCredentials,
} from './email-accounts.repo.js';
import { enqueueMail, kickMail } from './mail.service.js';
import { alreadyRegisteredMail, confirmationMail, resetMail } from './mail-templates.js';
import { hashPassword, verifyPassword } from './passwords.js';

/**
 * E-mail and password accounts (on only with SMTP_URL): sign-up, a confirmation link before the
 * first sign-in, sign-in, forgotten passwords. No answer tells whether an address has an account:
 * sign-up and "forgot" answer the same for both, and a sign-in checks a password in both.
 */

function mailOn(ctx: AppContext): void {
  if (!ctx.config.mail) throw new DomainError('not_found', EMAIL_MESSAGES.notEnabled);
}

async function eventName(ctx: AppContext): Promise<string> {
  return (await readEventState(ctx)).settings.name;
}

const linkTo = (ctx: AppContext, path: string, token: string) =>
  `${ctx.config.publicUrl}${path}?token=${encodeURIComponent(token)}`;

/** A fresh link token: the token for the mail, only its hash stored. */
function newToken(ctx: AppContext, userId: number, purpose: 'confirm' | 'reset') {
  const token = randomToken(32);
  const row = {
    token_hash: sha256(token),
    user_id: userId,
    purpose,
    expires_at: new Date(ctx.clock.now().getTime() + EMAIL_LINK_TTL_MS[purpose]).toISOString(),
  };
  return { token, row };
}

export async function register(
  ctx: AppContext,
  input: { username: string; email: string; password: string },
  registrationPass: string | undefined,
): Promise<{ message: string }> {
  mailOn(ctx);
  const problem = passwordProblem(input.password, input.username, input.email);
  if (problem) throw new DomainError('bad_input', problem);
  await checkRegistration(ctx, [input.email], registrationPass);
  if (await nameTaken(ctx, input.username)) throw new DomainError('name_taken', EMAIL_MESSAGES.usernameTaken);
  // Hashed whatever follows, so a known address takes as long as a new one.
  const passwordHash = await hashPassword(input.password);
  const event = await eventName(ctx);
  const now = ctx.clock.now().toISOString();
  const answer = { message: EMAIL_MESSAGES.registered };
  if (await isBlocked(ctx.database.db, input.email)) return answer;
  const known =
    (await findCredentialsByEmail(ctx.database.db, input.email)) ??
    ((await userIdWithEmail(ctx, input.email)) !== null ? { confirmed_at: now, user_id: 0 } : undefined);
  if (known) {
    await ctx.database.transaction(async (trx) => {
      if (known.confirmed_at === null) {
        // Not confirmed yet: a new link (the old ones go), so a lost first mail is not a dead end.
        const { token, row } = newToken(ctx, known.user_id, 'confirm');
        await deleteTokensOfUser(trx, known.user_id, 'confirm');
        await insertEmailToken(trx, row);
        const user = await findCredentialsByEmail(trx, input.email);
        await enqueueMail(
          ctx,
          trx,
          confirmationMail(
            input.email,
            event,
            user?.username ?? '',
            linkTo(ctx, '/api/auth/email/confirm', token),
          ),
        );
      } else {
        await enqueueMail(
          ctx,
          trx,
          alreadyRegisteredMail(
            input.email,
            event,
            `${ctx.config.publicUrl}/login`,
            `${ctx.config.publicUrl}/forgot-password`,
          ),
        );
      }
    });
    kickMail(ctx);
    return answer;
  }
  try {
    await ctx.database.transaction(async (trx) => {
      const userId = await insertNamedUser(trx, {
        username: input.username,
        // The account's address is set once it is confirmed.
        email: '',
        provider: 'email',
        providerUserId: input.email,
        now,
      });
      await insertCredentials(trx, {
        user_id: userId,
        email: input.email,
        password_hash: passwordHash,
        confirmed_at: null,
        created_at: now,
      });
      const { token, row } = newToken(ctx, userId, 'confirm');
      await insertEmailToken(trx, row);
      await enqueueMail(
        ctx,
        trx,
        confirmationMail(input.email, event, input.username, linkTo(ctx, '/api/auth/email/confirm', token)),
      );
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // The name or the address was taken in the meantime: the name says so; the address does not.
    if (await nameTaken(ctx, input.username))
      throw new DomainError('name_taken', EMAIL_MESSAGES.usernameTaken);
    return answer;
  }
  ctx.bus.publish('users');
  kickMail(ctx);
  return answer;
}

/** Follows a confirmation link: true when the token was valid (and is now used). */
export async function confirmEmail(ctx: AppContext, token: string): Promise<boolean> {
  if (!/^[\w-]{20,100}$/.test(token)) return false;
  const now = ctx.clock.now().toISOString();
  const taken = await takeEmailToken(ctx.database.db, sha256(token));
  if (!taken || taken.purpose !== 'confirm' || taken.expires_at <= now) return false;
  const creds = await findCredentialsOfUser(ctx.database.db, taken.user_id);
  if (!creds) return false;
  await ctx.database.transaction(async (trx) => {
    await updateCredentials(trx, taken.user_id, { confirmed_at: now });
    await setVerifiedEmail(trx, taken.user_id, creds.email);
  });
  ctx.bus.publish('users');
  await deleteExpiredTokens(ctx.database.db, now);
  return true;
}

/** Checks an address and password: the account's id, or a 401 / 403 refusal. */
export async function checkLogin(ctx: AppContext, email: string, password: string): Promise<number> {
  mailOn(ctx);
  const creds = await findCredentialsByEmail(ctx.database.db, email);
  const ok = await verifyPassword(creds?.password_hash, password);
  if (!creds || !ok) throw new DomainError('unauthenticated', EMAIL_MESSAGES.wrongLogin);
  if (await isBlocked(ctx.database.db, email)) throw new DomainError('forbidden', EMAIL_MESSAGES.blocked);
  if (creds.confirmed_at === null) throw new DomainError('forbidden', EMAIL_MESSAGES.unconfirmed);
  return creds.user_id;
}

/** Mails a reset link when an account uses the address; the answer is the same either way. */
export async function forgotPassword(ctx: AppContext, email: string): Promise<{ message: string }> {
  mailOn(ctx);
  const answer = { message: EMAIL_MESSAGES.forgot };
  const creds = await findCredentialsByEmail(ctx.database.db, email);
  if (!creds || (await isBlocked(ctx.database.db, email))) return answer;
  const event = await eventName(ctx);
  const { token, row } = newToken(ctx, creds.user_id, 'reset');
  await ctx.database.transaction(async (trx) => {
    await deleteTokensOfUser(trx, creds.user_id, 'reset');
    await insertEmailToken(trx, row);
    await enqueueMail(ctx, trx, resetMail(creds.email, event, linkTo(ctx, '/reset-password', token)));
  });
  kickMail(ctx);
  return answer;
}

/**
 * Sets a new password with a reset token (used once, valid 1 h); it also confirms the address (the
 * mail reached it) and ends every session of the account.
 */
export async function resetPassword(
  ctx: AppContext,
  token: string,
  password: string,
): Promise<{ message: string }> {
  mailOn(ctx);
  const now = ctx.clock.now().toISOString();
  const hashValue = /^[\w-]{20,100}$/.test(token) ? sha256(token) : '';
  const peeked = hashValue ? await peekEmailToken(ctx.database.db, hashValue) : undefined;
  if (!peeked || peeked.purpose !== 'reset' || peeked.expires_at <= now)
    throw new DomainError('bad_input', EMAIL_MESSAGES.badToken);
  const creds = await findCredentialsByEmail(
    ctx.database.db,
    (await findCredentialsOfUser(ctx.database.db, peeked.user_id))?.email ?? '',
  );
  if (!creds) throw new DomainError('bad_input', EMAIL_MESSAGES.badToken);
  // The new password is checked before the token is used, so a weak one does not burn the link.
  const problem = passwordProblem(password, creds.username, creds.email);
  if (problem) throw new DomainError('bad_input', problem);
  const passwordHash = await hashPassword(password);
  const used = await ctx.database.transaction(async (trx) => {
    const taken = await takeEmailToken(trx, hashValue);
    if (!taken) return false;
    await updateCredentials(trx, creds.user_id, {
      password_hash: passwordHash,
      ...(creds.confirmed_at === null ? { confirmed_at: now } : {}),
    });
    if (creds.confirmed_at === null) await setVerifiedEmail(trx, creds.user_id, creds.email);
    await endSessionsOfUsers(trx, [creds.user_id]);
    return true;
  });
  if (!used) throw new DomainError('bad_input', EMAIL_MESSAGES.badToken);
  ctx.bus.publish('sessions');
  ctx.bus.publish('users');
  return { message: EMAIL_MESSAGES.reset };
}
