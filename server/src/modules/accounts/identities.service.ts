import { EMAIL_MESSAGES, IDENTITY_MESSAGES, passwordProblem, type IdentityKind } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { DomainError } from '../../lib/errors.js';
import { readEventState } from '../event-state/event-state.service.js';
import { linkIdentity, unlinkIdentity } from '../users/identities.js';
import { userIdWithEmail } from '../users/users.service.js';
import {
  deleteCredentials,
  deleteTokensOfUser,
  findCredentialsByEmail,
  findCredentialsOfUser,
  insertCredentials,
  insertEmailToken,
  isBlocked,
} from './email-accounts.repo.js';
import { enqueueMail, kickMail } from './mail.service.js';
import { alreadyRegisteredMail, confirmationMail } from './mail-templates.js';
import { hashPassword } from './passwords.js';
import { EMAIL_LINK_TTL_MS } from '@ctf/contract';

/**
 * Adds an e-mail address and password as a way into the signed-in account, confirmed by a mailed
 * link. An address another account holds gets that account's "you already have an account" mail
 * and the same answer (no enumeration through the profile either).
 */
export async function addEmailIdentity(
  ctx: AppContext,
  user: UserRow,
  email: string,
  password: string,
): Promise<{ message: string }> {
  if (!ctx.config.mail) throw new DomainError('not_found', EMAIL_MESSAGES.notEnabled);
  const problem = passwordProblem(password, user.username, email);
  if (problem) throw new DomainError('bad_input', problem);
  if (await findCredentialsOfUser(ctx.database.db, user.id))
    throw new DomainError('conflict', IDENTITY_MESSAGES.onePerProvider);
  const passwordHash = await hashPassword(password);
  const answer = { message: IDENTITY_MESSAGES.emailAdded };
  if (await isBlocked(ctx.database.db, email)) return answer;
  const event = (await readEventState(ctx)).settings.name;
  const holder =
    (await findCredentialsByEmail(ctx.database.db, email))?.user_id ?? (await userIdWithEmail(ctx, email));
  if (holder !== null && holder !== undefined && holder !== user.id) {
    await ctx.database.transaction(async (trx) => {
      await enqueueMail(
        ctx,
        trx,
        alreadyRegisteredMail(email, event, `${ctx.config.publicUrl}/login`, `${ctx.config.publicUrl}/login`),
      );
    });
    kickMail(ctx);
    return answer;
  }
  const now = ctx.clock.now();
  await ctx.database.transaction(async (trx) => {
    await linkIdentity(ctx, user, { provider: 'email', providerUserId: email, name: email }, trx);
    await insertCredentials(trx, {
      user_id: user.id,
      email,
      password_hash: passwordHash,
      confirmed_at: null,
      created_at: now.toISOString(),
    });
    const token = randomToken(32);
    await insertEmailToken(trx, {
      token_hash: sha256(token),
      user_id: user.id,
      purpose: 'confirm',
      expires_at: new Date(now.getTime() + EMAIL_LINK_TTL_MS.confirm).toISOString(),
    });
    await enqueueMail(
      ctx,
      trx,
      confirmationMail(
        email,
        event,
        user.username,
        `${ctx.config.publicUrl}/api/auth/email/confirm?token=${encodeURIComponent(token)}`,
      ),
    );
  });
  kickMail(ctx);
  return answer;
}

/** Removes a way in (not the last); the e-mail one takes its password and links with it. */
export async function removeIdentity(
  ctx: AppContext,
  user: UserRow,
  provider: IdentityKind,
): Promise<{ message: string }> {
  const removed = await ctx.database.transaction(async (trx) => {
    const done = await unlinkIdentity(trx, user.id, provider);
    if (done && provider === 'email') {
      await deleteCredentials(trx, user.id);
      await deleteTokensOfUser(trx, user.id, 'confirm');
      await deleteTokensOfUser(trx, user.id, 'reset');
    }
    return done;
  });
  if (!removed) throw new DomainError('not_found', 'Your account has no sign-in of this kind.');
  ctx.bus.publish('users');
  return { message: IDENTITY_MESSAGES.unlinked };
}
