import {
  INSTANCE_MESSAGES,
  MESSAGES,
  OAUTH_PROVIDERS,
  nameKey,
  type AckResponse,
  type ChallengeInput,
  type Role,
  type SetupStatus,
} from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { Executor, UserRow } from '../../db/schema.js';
import { DomainError, badInput, conflict, notFound } from '../../lib/errors.js';
import { ALL_TOPICS } from '../../lib/invalidation.js';
import { recordAudit, type AuditActor } from '../audit/audit.service.js';
import {
  adminOnlyInstanceChanges,
  assertOwnsChallenges,
  challengeCount,
  createChallenge,
  updateChallenge,
  type ChallengeActor,
} from '../challenges/challenges.service.js';
import { isCreateLocked } from '../event-state/event-state.service.js';
import { removeMembershipInTransaction } from '../teams/teams.service.js';
import { isConfiguredAdmin, type IdentityProvider } from '../users/users.service.js';
import {
  deleteUserRow,
  findUserBrief,
  findUserBriefByKey,
  listIdentities,
  lockAdminIds,
  setUserRole,
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

const withArticle = (role: Role) => `${role === 'admin' || role === 'author' ? 'an' : 'a'} ${role}`;

type UserBrief = { id: number; username: string; role: Role };

/**
 * Changes a user's role under the lock of the admin set, with its audit row in the same
 * transaction: decide() answers the new role or refuses (already that role, the last admin).
 * The last admin never loses the role, so the panel always has someone. Admins leave or join the
 * leaderboard and the solve counts, and every session holds its user's role: every view of users
 * is rebuilt ('users').
 */
async function changeRole(
  ctx: AppContext,
  caller: AuditActor,
  find: (trx: Executor) => Promise<UserBrief | null>,
  missing: string,
  action: 'admin.promote' | 'admin.remove' | 'user.role',
  decide: (user: UserBrief) => Role,
): Promise<{ id: number; username: string; role: Role }> {
  const at = ctx.clock.now();
  const target = await ctx.database.transaction(async (trx) => {
    const user = await find(trx);
    if (!user) throw notFound(missing);
    const adminIds = await lockAdminIds(trx, ctx.database.dialect);
    const role = decide(user);
    if (role === user.role) throw conflict(`'${user.username}' is already ${withArticle(role)}.`);
    if (user.role === 'admin' && adminIds.length <= 1) throw conflict('The last admin cannot be removed.');
    await setUserRole(trx, user.id, role);
    await recordAudit(trx, {
      actor: caller,
      action,
      target: `user '${user.username}' (#${user.id})`,
      details: {
        before: { role: user.role, is_admin: user.role === 'admin' },
        after: { role, is_admin: role === 'admin' },
      },
      at,
    });
    return { id: user.id, username: user.username, role };
  });
  ctx.bus.publish('users');
  return target;
}

const byName = (username: string) => (trx: Executor) => findUserBriefByKey(trx, nameKey(username));

/** The ADMINS setting's note when an account it names leaves the admin role. */
async function adminsNote(ctx: AppContext, target: { id: number; username: string }, message: string) {
  if (await namedInAdmins(ctx, target.id, target.username)) {
    return ack(
      `${message} The ADMINS setting names this account, so it gets the admin role back at its next login.`,
    );
  }
  return ack(message);
}

/** Takes the admin role away (the user becomes a player); never from the last admin. */
export async function removeAdminRole(
  ctx: AppContext,
  caller: AuditActor,
  username: string,
): Promise<AckResponse> {
  const target = await changeRole(
    ctx,
    caller,
    byName(username),
    `No user named '${username}'.`,
    'admin.remove',
    (user) => {
      if (user.role !== 'admin') throw badInput(`'${user.username}' is not an admin.`);
      return 'player';
    },
  );
  return adminsNote(ctx, target, `'${target.username}' is no longer an admin.`);
}

/** Gives a user the admin role (the Users tab's Make Admin); already an admin is a 409. */
export async function promoteToAdmin(
  ctx: AppContext,
  caller: AuditActor,
  username: string,
): Promise<AckResponse> {
  const target = await changeRole(
    ctx,
    caller,
    byName(username),
    `No user named '${username}'.`,
    'admin.promote',
    () => 'admin',
  );
  return ack(`'${target.username}' is now an admin.`);
}

/** Sets a user's staff role (issue 31: the Users tab's role selector). */
export async function setRole(
  ctx: AppContext,
  caller: AuditActor,
  userId: number,
  role: Role,
): Promise<AckResponse> {
  const target = await changeRole(
    ctx,
    caller,
    (trx) => findUserBrief(trx, userId),
    'User not found',
    'user.role',
    () => role,
  );
  const message = `'${target.username}' is now ${withArticle(role)}.`;
  return role === 'admin' ? ack(message) : adminsNote(ctx, target, message);
}

/**
 * Only an admin changes what an instance runs and reaches (image, capabilities, writable root,
 * egress): an author's input that would change one is refused (403) before anything is written.
 */
async function refuseAuthorInstanceChange(
  ctx: AppContext,
  caller: ChallengeActor,
  challengeId: number | null,
  instance: ChallengeInput['instance'],
): Promise<void> {
  // No role: the system's own writes (seeds, scripts, tests calling the service).
  if (caller.role === undefined || caller.role === 'admin') return;
  // Ownership first: another's challenge says only that, never which of its instance fields differ.
  if (challengeId !== null) await assertOwnsChallenges(ctx.database.db, caller, [challengeId]);
  const fields = await adminOnlyInstanceChanges(ctx.database.db, challengeId, instance);
  if (fields.length > 0) throw new DomainError('forbidden', INSTANCE_MESSAGES.adminOnly(fields));
}

/**
 * Create Challenge is refused while the event runs (docs/product.md §4) unless the organisers
 * allowed it (allowCreateDuringEvent); otherwise it creates.
 */
export async function createChallengeOutsideEvent(
  ctx: AppContext,
  caller: ChallengeActor,
  input: ChallengeInput,
): Promise<AckResponse> {
  if (await isCreateLocked(ctx)) throw new DomainError('forbidden', MESSAGES.createDisabled);
  await refuseAuthorInstanceChange(ctx, caller, null, input.instance);
  await createChallenge(ctx, input, caller);
  return ack(`Challenge '${input.name}' created successfully.`);
}

export async function saveChallenge(
  ctx: AppContext,
  caller: ChallengeActor,
  id: number,
  input: ChallengeInput,
): Promise<AckResponse> {
  await refuseAuthorInstanceChange(ctx, caller, id, input.instance);
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
