import {
  MESSAGES,
  OAUTH_PROVIDERS,
  nameKey,
  type AckResponse,
  type ChallengeInput,
  type SetupStatus,
} from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { DomainError, badInput, conflict, notFound } from '../../lib/errors.js';
import { ALL_TOPICS } from '../../lib/invalidation.js';
import { recordAudit, type AuditActor } from '../audit/audit.service.js';
import { challengeCount, createChallenge, updateChallenge } from '../challenges/challenges.service.js';
import { isDuringEvent } from '../event-state/event-state.service.js';
import { removeMembershipInTransaction } from '../teams/teams.service.js';
import { isConfiguredAdmin, type IdentityProvider } from '../users/users.service.js';
import {
  deleteUserRow,
  findUserBrief,
  findUserBriefByKey,
  listIdentities,
  lockAdminIds,
  setAdminFlag,
} from './admin.repo.js';

const ack = (message: string): AckResponse => ({ acknowledge: true, message });

/**
 * Removes a user: out of their team (leadership passes on, an emptied team goes) and deleted with
 * their sessions, solves, ratings, identities and requests in one transaction. Every score is
 * recomputed from what remains; the user's next request finds no session.
 */
export async function removeUser(ctx: AppContext, caller: UserRow, userId: number): Promise<AckResponse> {
  if (userId === caller.id) throw badInput('You cannot remove yourself.');
  const at = ctx.clock.now();
  const username = await ctx.database.transaction(async (trx) => {
    const user = await findUserBrief(trx, userId);
    if (!user) throw notFound('User not found');
    await removeMembershipInTransaction(ctx, trx, userId);
    await deleteUserRow(trx, userId);
    await recordAudit(trx, {
      actor: caller,
      action: 'user.remove',
      target: `user '${user.username}' (#${user.id})`,
      details: { was_admin: user.is_admin === 1 },
      at,
    });
    return user.username;
  });
  for (const topic of ['users', 'teams', 'solves', 'ratings'] as const) ctx.bus.publish(topic);
  return ack(`User '${username}' was removed.`);
}

/** Whether ADMINS names one of this user's login identities (they regain the role at login). */
async function namedInAdmins(ctx: AppContext, userId: number, username: string): Promise<boolean> {
  const identities = await listIdentities(ctx.database.db, userId);
  return identities.some((i) => {
    const provider = i.provider as IdentityProvider;
    // The handle is not stored; the username began as it, and a local identity's id is the name.
    return (
      isConfiguredAdmin(ctx, provider, username) ||
      (provider === 'local' && isConfiguredAdmin(ctx, provider, i.provider_user_id))
    );
  });
}

/**
 * Gives or takes the admin role under the lock of the admin set, with its audit row in the same
 * transaction; check() refuses a change that does not apply (already an admin, not one, the last).
 * Admins leave or join the leaderboard and the solve counts: every view that counts players is
 * rebuilt ('users').
 */
async function changeAdminRole(
  ctx: AppContext,
  caller: AuditActor,
  username: string,
  makeAdmin: boolean,
  check: (user: { username: string }, isAdmin: boolean, adminCount: number) => void,
): Promise<{ id: number; username: string }> {
  const at = ctx.clock.now();
  const target = await ctx.database.transaction(async (trx) => {
    const user = await findUserBriefByKey(trx, nameKey(username));
    if (!user) throw notFound(`No user named '${username}'.`);
    const adminIds = await lockAdminIds(trx, ctx.database.dialect);
    check(user, adminIds.includes(user.id), adminIds.length);
    await setAdminFlag(trx, user.id, makeAdmin);
    await recordAudit(trx, {
      actor: caller,
      action: makeAdmin ? 'admin.promote' : 'admin.remove',
      target: `user '${user.username}' (#${user.id})`,
      details: { before: { is_admin: !makeAdmin }, after: { is_admin: makeAdmin } },
      at,
    });
    return user;
  });
  ctx.bus.publish('users');
  return target;
}

/** Takes the admin role away; never from the last admin, so the panel always has someone. */
export async function removeAdminRole(
  ctx: AppContext,
  caller: AuditActor,
  username: string,
): Promise<AckResponse> {
  const target = await changeAdminRole(ctx, caller, username, false, (user, isAdmin, adminCount) => {
    if (!isAdmin) throw badInput(`'${user.username}' is not an admin.`);
    if (adminCount <= 1) throw conflict('The last admin cannot be removed.');
  });
  const message = `'${target.username}' is no longer an admin.`;
  if (await namedInAdmins(ctx, target.id, target.username)) {
    return ack(
      `${message} The ADMINS setting names this account, so it gets the admin role back at its next login.`,
    );
  }
  return ack(message);
}

/** Gives a user the admin role (the Users tab's Make Admin); already an admin is a 409. */
export async function promoteToAdmin(
  ctx: AppContext,
  caller: AuditActor,
  username: string,
): Promise<AckResponse> {
  const target = await changeAdminRole(ctx, caller, username, true, (user, isAdmin) => {
    if (isAdmin) throw conflict(`'${user.username}' is already an admin.`);
  });
  return ack(`'${target.username}' is now an admin.`);
}

/** Create Challenge is refused while the event runs (docs/product.md §4); otherwise it creates. */
export async function createChallengeOutsideEvent(
  ctx: AppContext,
  caller: AuditActor,
  input: ChallengeInput,
): Promise<AckResponse> {
  if (await isDuringEvent(ctx)) throw new DomainError('forbidden', MESSAGES.createDisabled);
  await createChallenge(ctx, input, caller);
  return ack(`Challenge '${input.name}' created successfully.`);
}

export async function saveChallenge(
  ctx: AppContext,
  caller: AuditActor,
  id: number,
  input: ChallengeInput,
): Promise<AckResponse> {
  await updateChallenge(ctx, id, input, caller);
  return ack(`Challenge '${input.name}' updated successfully.`);
}

/**
 * Force update: every cache (in this process and, through the bus, in every other one) drops its
 * value, so scores, lists and counts are rebuilt from the stored solves and ratings on next read.
 */
export async function forceUpdate(ctx: AppContext, caller: AuditActor): Promise<AckResponse> {
  const at = ctx.clock.now();
  await ctx.database.transaction(async (trx) => {
    await recordAudit(trx, { actor: caller, action: 'cache.force_update', target: 'caches', at });
  });
  for (const topic of ALL_TOPICS) ctx.bus.publish(topic);
  return ack('Every cached figure will be rebuilt from the stored solves and ratings.');
}

/**
 * GET /api/admin/setup: what the set-up checklist shows. The redirect URLs are the ones the
 * callbacks answer at (PUBLIC_URL), exactly as each provider's app must list them.
 */
export async function getSetupStatus(ctx: AppContext): Promise<SetupStatus> {
  const c = ctx.config;
  const redirect = (p: (typeof OAUTH_PROVIDERS)[number]) => `${c.publicUrl}/api/auth/${p}/callback`;
  return {
    challenges: await challengeCount(ctx),
    publicUrl: c.publicUrl,
    login: { discord: c.oauth.discord !== null, github: c.oauth.github !== null, local: c.localLogin },
    redirectUrls: { discord: redirect('discord'), github: redirect('github') },
    webhook: c.webhook !== null,
  };
}
