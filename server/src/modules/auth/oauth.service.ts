import { CodeChallengeMethod, OAuth2Client, generateCodeVerifier } from 'arctic';
import { IDENTITY_MESSAGES, type IdentityKind, type OAuthProvider } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { constantTimeEqual, randomToken, sha256 } from '../../lib/crypto.js';
import { EXPIRED_ROWS_SWEEP_MS, atMostEvery } from '../../lib/housekeeping.js';
import { findOrCreateUser, type ProviderProfile } from '../users/users.service.js';
import { linkIdentity } from '../users/identities.js';
import { exchangeCode, providerSpec } from './oauth.providers.js';
import {
  deleteExpiredOAuthStates,
  insertOAuthState,
  takeOAuthState,
  type OAuthStateRow,
} from './oauth.repo.js';

export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;

/** A login that cannot go on; its message is shown to the person in the login page. */
export class LoginError extends Error {}

function redirectUri(ctx: AppContext, provider: OAuthProvider): string {
  return `${ctx.config.publicUrl}/api/auth/${provider}/callback`;
}

function client(ctx: AppContext, provider: OAuthProvider) {
  const spec = providerSpec(ctx.config, provider);
  if (!spec)
    throw new LoginError(
      `${provider === 'github' ? 'GitHub' : 'Discord'} login is not enabled on this site.`,
    );
  return {
    spec,
    oauth: new OAuth2Client(spec.config.clientId, spec.config.clientSecret, redirectUri(ctx, provider)),
  };
}

const expiredStatesSweep = atMostEvery(EXPIRED_ROWS_SWEEP_MS);

/**
 * Stores a sign-in's state (OAuth or OIDC), and at most once a minute deletes the expired ones
 * first (a state is refused after its expiry wherever it is read).
 */
export async function storeOAuthState(ctx: AppContext, now: Date, row: OAuthStateRow): Promise<void> {
  if (expiredStatesSweep(ctx, now.getTime()))
    await deleteExpiredOAuthStates(ctx.database.db, now.toISOString());
  await insertOAuthState(ctx.database.db, row);
}

/**
 * Starts a login: a single-use state (stored hashed, with the PKCE verifier) and the provider's
 * authorize URL. The caller puts the state in a short-lived HttpOnly cookie too, binding the
 * callback to this browser.
 */
export async function beginLogin(
  ctx: AppContext,
  provider: OAuthProvider,
  linkUserId: number | null = null,
): Promise<{ url: string; state: string }> {
  const { spec, oauth } = client(ctx, provider);
  const state = randomToken(32);
  const verifier = generateCodeVerifier();
  const now = ctx.clock.now();
  await storeOAuthState(ctx, now, {
    state_hash: sha256(state),
    provider,
    code_verifier: spec.pkce ? verifier : '',
    expires_at: new Date(now.getTime() + OAUTH_STATE_TTL_MS).toISOString(),
    link_user_id: linkUserId,
  });
  const url = spec.pkce
    ? oauth.createAuthorizationURLWithPKCE(
        spec.config.authorizeUrl,
        state,
        CodeChallengeMethod.S256,
        verifier,
        spec.scopes,
      )
    : oauth.createAuthorizationURL(spec.config.authorizeUrl, state, spec.scopes);
  return { url: url.toString(), state };
}

/** What a provider's callback carries, and the browser's state cookie. */
export interface CallbackInput {
  code?: string;
  state?: string;
  cookieState?: string;
  error?: string;
  /** The browser's pass for the registration code (a new account needs it when the site has one). */
  registrationPass?: string;
  /** The signed-in user at the callback (a link must finish for the user who started it). */
  sessionUser?: UserRow | null;
}

/** How a callback ended: a sign-in (start a session) or a way in linked to the signed-in user. */
export interface CallbackOutcome {
  user: UserRow;
  linked: boolean;
}

/**
 * The end of every provider's callback once its profile is known: a link when the state was made
 * for one (by the same signed-in user), else a sign-in that finds or makes the account.
 */
export async function finishCallback(
  ctx: AppContext,
  stored: { link_user_id: number | null },
  input: CallbackInput,
  profile: ProviderProfile,
): Promise<CallbackOutcome> {
  if (stored.link_user_id !== null) {
    const user = input.sessionUser;
    if (!user || user.id !== stored.link_user_id) throw new LoginError(IDENTITY_MESSAGES.signInFirst);
    await linkIdentity(ctx, user, {
      provider: profile.provider as IdentityKind,
      providerUserId: profile.providerUserId,
      name: profile.handle,
    });
    return { user, linked: true };
  }
  const user = await findOrCreateUser(ctx, profile, { registrationPass: input.registrationPass });
  return { user, linked: false };
}

/**
 * A callback's checks before any exchange: the provider's error, then the state, which must match
 * the browser's cookie, exist, be unexpired, be for this provider (no mix-up) and is consumed.
 */
export async function takeCallbackState(
  ctx: AppContext,
  provider: string,
  input: CallbackInput,
): Promise<{ code: string; state: string; code_verifier: string; link_user_id: number | null }> {
  if (input.error) {
    throw new LoginError(
      input.error === 'access_denied' ? 'Login was cancelled.' : 'The provider refused the login.',
    );
  }
  if (!input.state || !input.cookieState || !constantTimeEqual(input.state, input.cookieState)) {
    throw new LoginError('This login attempt is not valid any more. Please try again.');
  }
  const stored = await takeOAuthState(ctx.database.db, sha256(input.state));
  if (!stored || stored.provider !== provider || stored.expires_at <= ctx.clock.now().toISOString()) {
    throw new LoginError('This login attempt has expired or was already used. Please try again.');
  }
  if (!input.code) throw new LoginError('The provider did not send a login code. Please try again.');
  return {
    code: input.code,
    state: input.state,
    code_verifier: stored.code_verifier,
    link_user_id: stored.link_user_id,
  };
}

/**
 * Finishes a login: the state must match the browser's cookie, exist, be unexpired, be for this
 * provider (no mix-up) and is consumed; then the code is exchanged and the profile read.
 */
export async function completeLogin(
  ctx: AppContext,
  provider: OAuthProvider,
  input: CallbackInput,
): Promise<CallbackOutcome> {
  const stored = await takeCallbackState(ctx, provider, input);
  const { spec } = client(ctx, provider);
  let accessToken: string;
  try {
    accessToken = await exchangeCode(
      spec.config,
      redirectUri(ctx, provider),
      stored.code,
      spec.pkce ? stored.code_verifier : null,
    );
  } catch (err) {
    ctx.log.warn(
      { provider, reason: err instanceof Error ? err.message : 'unknown' },
      'oauth code exchange failed',
    );
    throw new LoginError(`${spec.label} did not accept the login. Please try again.`);
  }
  let profile;
  try {
    profile = await spec.fetchProfile(accessToken);
  } catch (err) {
    ctx.log.warn(
      { provider, reason: err instanceof Error ? err.message : 'unknown' },
      'oauth profile failed',
    );
    throw new LoginError(`Could not read your ${spec.label} profile. Please try again.`);
  }
  if (!profile.id || !profile.handle) throw new LoginError(`${spec.label} sent an incomplete profile.`);
  return finishCallback(ctx, stored, input, {
    provider,
    providerUserId: profile.id,
    handle: profile.handle,
    avatarUrl: profile.avatarUrl,
    email: profile.email,
    verifiedEmails: profile.verifiedEmails,
  });
}
