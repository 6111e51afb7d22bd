import {
  REGISTRATION_MESSAGES,
  USERNAME_MAX_LENGTH,
  cleanName,
  nameKey,
  usersApi,
  type Role,
  type User,
  type UserCompletion,
} from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/connect.js';
import { DomainError } from '../../lib/errors.js';
import { checkRegistration } from './registration.js';
import { roleColumns } from '../../db/user-role.js';
import { CachedJson } from '../../lib/cached-json.js';
import { KeyedCache } from '../../lib/invalidation.js';
import { dropTouchedBySolves } from '../scoreboard/solve-feed.js';
import { listAwardsOfUsers } from '../awards/awards.service.js';
import type { Executor, UserRow } from '../../db/schema.js';
import { presentCompletion, presentUser, presentUserFor } from './users.presenter.js';
import { divisionNameOf, getDivisionState } from '../divisions/divisions.service.js';
import {
  findTeamNameAndLeader,
  findNameOwner,
  findUserByIdentity,
  findUserIdByEmail,
  anyAdmin,
  updateIdentityName,
  insertIdentity,
  insertUser,
  listRatedByRole,
  listSolvesByRole,
  listUserCompletions,
  listUserRatedChallengeIds,
  listUsersByRole,
  updateProfile,
} from './users.repo.js';

export type IdentityProvider = 'discord' | 'github' | 'oidc' | 'local';

export interface ProviderProfile {
  provider: IdentityProvider;
  /** The provider's stable user id (never the name or email). */
  providerUserId: string;
  /** The provider's handle (GitHub login, Discord username): the username on first login. */
  handle: string;
  avatarUrl: string;
  email: string;
  /**
   * Every address the provider says it verified (GitHub lists several), for the registration's
   * domain rule; absent: `email` alone, when set.
   */
  verifiedEmails?: string[];
}

/**
 * Whether ADMINS names this account: the provider's own handle, compared ignoring case only (as
 * the providers compare them). NOTE: not by nameKey: a handle that equals an admin's only after
 * NFKC folding (full-width letters, ligatures) is another account at the provider, and must not
 * inherit the role.
 */
export function isConfiguredAdmin(ctx: AppContext, provider: IdentityProvider, handle: string): boolean {
  const key = handle.trim().toLowerCase();
  return ctx.config.admins.some((a) => a.provider === provider && a.name.trim().toLowerCase() === key);
}

function candidateName(base: string, attempt: number): string {
  if (attempt === 0) return base.slice(0, USERNAME_MAX_LENGTH);
  const suffix = String(attempt + 1);
  return base.slice(0, USERNAME_MAX_LENGTH - suffix.length) + suffix;
}

/**
 * Finds the user of a provider identity, or creates one. Accounts are found by (provider, provider
 * user id) only, never by name or email (docs/product.md §11). A new user's name is the provider handle,
 * with a numeric suffix when its normalised form is taken. Later logins refresh avatar and email
 * but never the username; ADMINS grants the admin role at each login.
 */
export async function findOrCreateUser(
  ctx: AppContext,
  profile: ProviderProfile,
  options: { grantAdmin?: boolean; registrationPass?: string } = {},
): Promise<UserRow> {
  const db = ctx.database.db;
  const admin = options.grantAdmin === true || isConfiguredAdmin(ctx, profile.provider, profile.handle);
  const existing = await findUserByIdentity(db, profile.provider, profile.providerUserId);
  if (existing) {
    await updateIdentityName(db, profile.provider, profile.providerUserId, profile.handle.slice(0, 200));
    const becomesAdmin = admin && existing.is_admin !== 1;
    // ADMINS (or the first run's grant) makes the account an admin, whatever staff role it had.
    const patch = {
      avatar_url: profile.avatarUrl,
      email: profile.email,
      ...(admin ? { role: 'admin' as const } : {}),
    };
    if (becomesAdmin || patch.avatar_url !== existing.avatar_url || patch.email !== existing.email) {
      await updateProfile(db, existing.id, patch);
      // The user's other sessions (other devices) are kept in memory with the old profile; a new
      // admin drops out of the scores.
      ctx.bus.publish(becomesAdmin ? 'users' : 'sessions');
    }
    return { ...existing, ...patch, ...(admin ? roleColumns('admin') : {}) };
  }
  // A new account: the settings' registration rules (an account named in ADMINS is always made,
  // so a closed site keeps its organisers), and never a silent merge with an account that holds
  // the same verified address.
  const verified = profile.verifiedEmails ?? (profile.email ? [profile.email] : []);
  if (!admin) await checkRegistration(ctx, verified, options.registrationPass);
  if (profile.email && (await findUserIdByEmail(db, profile.email)) !== null) {
    throw new DomainError('conflict', REGISTRATION_MESSAGES.emailInUse);
  }
  const base = cleanName(profile.handle) || 'player';
  for (let attempt = 0; attempt < 1000; attempt++) {
    const username = candidateName(base, attempt);
    // One namespace with team names: a handle that reads as a team's name gets a suffix too.
    if ((await findNameOwner(db, nameKey(username))) === 'team') continue;
    try {
      const now = ctx.clock.now().toISOString();
      const created = await ctx.database.transaction(async (trx) => {
        const user = await insertUser(trx, {
          username,
          username_key: nameKey(username),
          avatar_url: profile.avatarUrl,
          email: profile.email,
          role: admin ? 'admin' : 'player',
          created_at: now,
        });
        await insertIdentity(trx, {
          user_id: user.id,
          provider: profile.provider,
          provider_user_id: profile.providerUserId,
          created_at: now,
          name: profile.handle.slice(0, 200),
        });
        return user;
      });
      // NOTE: a new player is in no kept answer yet, so nothing is told (the board learns them at
      // their first solve, ScoreBoard.learnUsers); a new admin changes who the site's admins are.
      if (admin) ctx.bus.publish('users');
      // The row as the insert wrote it (its RETURNING): not read again.
      return created;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // Either the name is taken (try the next suffix) or the same identity raced us in.
      const raced = await findUserByIdentity(db, profile.provider, profile.providerUserId);
      if (raced) return raced;
    }
  }
  throw new Error('could not find a free username');
}

/** How many users' answers each process keeps (a few kB each). */
export const USER_ANSWER_CACHE_SIZE = 5_000;

const userInfoCaches = new WeakMap<AppContext, KeyedCache<number, CachedJson>>();

/**
 * GET /api/user/info for the caller, serialised once per change and kept per user: every page
 * of the web asks for it. It shows the user's row, team, solves, ratings and challenge names.
 */
export async function getUserInfoAnswer(ctx: AppContext, user: UserRow): Promise<CachedJson> {
  let cache = userInfoCaches.get(ctx);
  if (!cache) {
    cache = new KeyedCache(
      ctx.bus,
      // Awards are an admin's rare act: any of them drops every kept answer.
      ['users', 'teams', 'sessions', 'solves', 'ratings', 'challenges', 'awards', 'awards-added'],
      USER_ANSWER_CACHE_SIZE,
      // A correct flag changes its solver's answer only.
      dropTouchedBySolves<number, CachedJson>(ctx.database, (userId, _answer, by) => by.users.has(userId)),
    );
    userInfoCaches.set(ctx, cache);
  }
  return cache.get(user.id, async () =>
    CachedJson.of(usersApi.userInfo.response, await getUserInfo(ctx, user)),
  );
}

/** docs/product.md §3 User for the caller: team name or 'None', completions and what they rated. */
export async function getUserInfo(ctx: AppContext, user: UserRow): Promise<User> {
  const db = ctx.database.db;
  const [team, completions, rated, divisions, awards] = await Promise.all([
    user.team_id === null ? Promise.resolve(null) : findTeamNameAndLeader(db, user.team_id),
    listUserCompletions(db, user.id),
    listUserRatedChallengeIds(db, user.id),
    getDivisionState(ctx),
    listAwardsOfUsers(ctx, [user.id]),
  ]);
  return presentUser(
    { ...user, team_name: team?.name ?? null, team_leader_id: team?.leader_id ?? null },
    completions.map(presentCompletion),
    rated,
    awards.get(user.id) ?? [],
    divisionNameOf(divisions, user.division_id),
  );
}

/**
 * Every user of one role (the admin panel's Users and Admins lists) in docs/product.md's User
 * shape, in three queries however many users there are, as the viewer's role may read them (no
 * e-mail address but for an admin).
 */
export async function listUsersOfRole(
  ctx: AppContext,
  role: 'participants' | 'admins',
  viewer: Role,
): Promise<User[]> {
  const db = ctx.database.db;
  const admins = role === 'admins';
  const [users, solves, rated, divisions, awards] = await Promise.all([
    listUsersByRole(db, admins),
    listSolvesByRole(db, admins),
    listRatedByRole(db, admins),
    getDivisionState(ctx),
    // Awards are few: every user's, rather than a list of thousands of ids.
    listAwardsOfUsers(ctx, 'all'),
  ]);
  const completions = new Map<number, UserCompletion[]>();
  for (const s of solves)
    completions.set(s.user_id, [...(completions.get(s.user_id) ?? []), presentCompletion(s)]);
  const rates = new Map<number, number[]>();
  for (const r of rated) rates.set(r.user_id, [...(rates.get(r.user_id) ?? []), r.challenge_id]);
  return users.map((u) =>
    presentUserFor(
      viewer,
      presentUser(
        u,
        completions.get(u.id) ?? [],
        rates.get(u.id) ?? [],
        awards.get(u.id) ?? [],
        divisionNameOf(divisions, u.division_id),
      ),
    ),
  );
}

/** The user's own completions (My Stats), oldest first: the same list getUserInfo shows. */
export async function listCompletionsOfUser(ctx: AppContext, userId: number): Promise<UserCompletion[]> {
  const rows = await listUserCompletions(ctx.database.db, userId);
  return rows.map(presentCompletion);
}

/** Whether the site has an admin yet: the login page tells a fresh site how to make the first. */
export async function siteHasAdmin(ctx: AppContext): Promise<boolean> {
  return anyAdmin(ctx.database.db);
}

/** Whether a name key belongs to a user, a team, or nobody (team names and usernames are one namespace). */
export async function nameOwner(db: Executor, key: string): Promise<'user' | 'team' | null> {
  return findNameOwner(db, key);
}

/** Whether a name is taken by a user or a team (one namespace, compared by nameKey). */
export async function nameTaken(ctx: AppContext, name: string): Promise<boolean> {
  return (await findNameOwner(ctx.database.db, nameKey(name))) !== null;
}

/** The account whose stored (verified) address is this one, ignoring case; null when none. */
export async function userIdWithEmail(ctx: AppContext, email: string): Promise<number | null> {
  return findUserIdByEmail(ctx.database.db, email);
}

/**
 * Makes an account with exactly this username and one way in, in the caller's transaction (a
 * sign-up with a password); a taken name or identity is the database's unique violation.
 */
export async function insertNamedUser(
  trx: Executor,
  row: { username: string; email: string; provider: string; providerUserId: string; now: string },
): Promise<number> {
  const { id: userId } = await insertUser(trx, {
    username: row.username,
    username_key: nameKey(row.username),
    avatar_url: '',
    email: row.email,
    role: 'player',
    created_at: row.now,
  });
  await insertIdentity(trx, {
    user_id: userId,
    provider: row.provider,
    provider_user_id: row.providerUserId,
    created_at: row.now,
    name: row.providerUserId,
  });
  return userId;
}

/** Stores an account's address once it is verified (a confirmed sign-up), in the caller's transaction. */
export async function setVerifiedEmail(trx: Executor, userId: number, email: string): Promise<void> {
  await trx.updateTable('users').set({ email }).where('id', '=', userId).execute();
}
