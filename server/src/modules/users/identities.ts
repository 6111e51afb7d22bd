import { IDENTITY_KINDS, IDENTITY_MESSAGES, type Identity, type IdentityKind } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/connect.js';
import type { Executor, UserRow } from '../../db/schema.js';
import { DomainError } from '../../lib/errors.js';
import { deleteIdentity, findUserByIdentity, insertIdentity, listIdentities } from './users.repo.js';

/**
 * One person, one account, several ways in: the identities of an account, linking one more (while
 * signed in) and unlinking any but the last.
 */

/** The account's ways in; the local trial's name sign-in is none of a deployed site's, so not listed. */
export async function identitiesOf(ctx: AppContext, userId: number): Promise<Identity[]> {
  const kinds: readonly string[] = IDENTITY_KINDS;
  return (await listIdentities(ctx.database.db, userId))
    .filter((i) => kinds.includes(i.provider))
    .map((i) => ({
      provider: i.provider as IdentityKind,
      name: i.name || i.provider_user_id,
      linkedAt: i.created_at,
    }));
}

/**
 * Links a provider identity to a signed-in user. An identity already on another account is
 * refused (never moved); one already on this account is a no-op; a second of the same provider is
 * refused (unlink the first).
 */
export async function linkIdentity(
  ctx: AppContext,
  user: UserRow,
  identity: { provider: IdentityKind; providerUserId: string; name: string },
  trx: Executor = ctx.database.db,
): Promise<void> {
  const owner = await findUserByIdentity(trx, identity.provider, identity.providerUserId);
  if (owner) {
    if (owner.id === user.id) return;
    throw new DomainError('conflict', IDENTITY_MESSAGES.elsewhere);
  }
  const mine = await listIdentities(trx, user.id);
  if (mine.some((i) => i.provider === identity.provider)) {
    throw new DomainError('conflict', IDENTITY_MESSAGES.onePerProvider);
  }
  try {
    await insertIdentity(trx, {
      user_id: user.id,
      provider: identity.provider,
      provider_user_id: identity.providerUserId,
      name: identity.name.slice(0, 200),
      created_at: ctx.clock.now().toISOString(),
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('conflict', IDENTITY_MESSAGES.elsewhere);
    throw err;
  }
  ctx.bus.publish('users');
}

/**
 * Removes a way in, in the caller's transaction, unless it is the account's last (400); answers
 * whether there was one to remove.
 */
export async function unlinkIdentity(
  trx: Executor,
  userId: number,
  provider: IdentityKind,
): Promise<boolean> {
  const mine = await listIdentities(trx, userId);
  if (!mine.some((i) => i.provider === provider)) return false;
  if (mine.length <= 1) throw new DomainError('bad_input', IDENTITY_MESSAGES.last);
  return (await deleteIdentity(trx, userId, provider)) > 0;
}
