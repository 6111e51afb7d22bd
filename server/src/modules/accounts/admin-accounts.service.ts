import type { IdentityKind } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { DomainError } from '../../lib/errors.js';
import { recordAudit, type AuditActor } from '../audit/audit.service.js';
import { readEventState } from '../event-state/event-state.service.js';
import {
  deleteTokensOfUser,
  findCredentialsByEmail,
  findCredentialsOfUser,
  insertEmailToken,
  listBlocked,
  listSignIns,
  setBlocked,
} from './email-accounts.repo.js';
import { enqueueMail, kickMail } from './mail.service.js';
import { confirmationMail } from './mail-templates.js';
import { EMAIL_LINK_TTL_MS } from '@ctf/contract';

/** The Users tab's view of sign-in: each user's ways in (names of providers) and confirmation. */
export async function signInsOfUsers(
  ctx: AppContext,
): Promise<{ user_id: string; ways: IdentityKind[]; emailVerified: boolean | null }[]> {
  const byUser = new Map<number, { ways: IdentityKind[]; emailVerified: boolean | null }>();
  for (const row of await listSignIns(ctx.database.db)) {
    let entry = byUser.get(row.user_id);
    if (!entry) {
      entry = { ways: [], emailVerified: Number(row.has_email) === 1 ? row.confirmed_at !== null : null };
      byUser.set(row.user_id, entry);
    }
    // The local trial's identities are no way in of a deployed site: not shown.
    if (row.provider !== 'local') entry.ways.push(row.provider as IdentityKind);
  }
  return [...byUser].map(([id, e]) => ({ user_id: String(id), ...e }));
}

/** Mails a new confirmation link to a user whose e-mail sign-in is not confirmed (audited). */
export async function resendConfirmation(
  ctx: AppContext,
  userId: number,
  actor: AuditActor,
): Promise<{ acknowledge: true; message: string }> {
  const creds = await findCredentialsOfUser(ctx.database.db, userId);
  if (!creds) throw new DomainError('not_found', 'This user has no e-mail sign-in.');
  if (creds.confirmed_at !== null) throw new DomainError('conflict', 'This address is already confirmed.');
  const user = await findCredentialsByEmail(ctx.database.db, creds.email);
  const event = (await readEventState(ctx)).settings.name;
  const token = randomToken(32);
  const now = ctx.clock.now();
  await ctx.database.transaction(async (trx) => {
    await deleteTokensOfUser(trx, userId, 'confirm');
    await insertEmailToken(trx, {
      token_hash: sha256(token),
      user_id: userId,
      purpose: 'confirm',
      expires_at: new Date(now.getTime() + EMAIL_LINK_TTL_MS.confirm).toISOString(),
    });
    await enqueueMail(
      ctx,
      trx,
      confirmationMail(
        creds.email,
        event,
        user?.username ?? '',
        `${ctx.config.publicUrl}/api/auth/email/confirm?token=${encodeURIComponent(token)}`,
      ),
    );
    await recordAudit(trx, {
      actor,
      action: 'user.resend_confirmation',
      target: user?.username ?? String(userId),
      details: {},
      at: now,
    });
  });
  kickMail(ctx);
  return { acknowledge: true, message: 'A new confirmation link is on its way.' };
}

export async function blockedAddresses(ctx: AppContext): Promise<{ email: string; blockedAt: string }[]> {
  return (await listBlocked(ctx.database.db)).map((b) => ({ email: b.email, blockedAt: b.created_at }));
}

/** Blocks or unblocks an address for e-mail sign-up, sign-in and reset (audited). */
export async function blockAddress(
  ctx: AppContext,
  email: string,
  blocked: boolean,
  actor: AuditActor,
): Promise<{ acknowledge: true; message: string }> {
  const now = ctx.clock.now();
  await ctx.database.transaction(async (trx) => {
    await setBlocked(trx, email, blocked, now.toISOString());
    await recordAudit(trx, {
      actor,
      action: blocked ? 'email.block' : 'email.unblock',
      target: email,
      details: {},
      at: now,
    });
  });
  return { acknowledge: true, message: blocked ? `${email} is blocked.` : `${email} is no longer blocked.` };
}
