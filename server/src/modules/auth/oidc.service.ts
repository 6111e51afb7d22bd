import * as oidc from 'openid-client';
import type { AppContext } from '../../context.js';
import { hmac, randomToken, sha256 } from '../../lib/crypto.js';
import {
  LoginError,
  OAUTH_STATE_TTL_MS,
  finishCallback,
  storeOAuthState,
  takeCallbackState,
  type CallbackInput,
  type CallbackOutcome,
} from './oauth.service.js';

/**
 * Sign-in through one OpenID Connect provider (a university's single sign-on: Entra ID, Google
 * Workspace, Keycloak, Shibboleth's OIDC, Authentik...), with openid-client, a certified relying
 * party: discovery from the issuer, the authorization code flow with PKCE, state and nonce, and
 * the ID token verified (signature from the provider's JWKS, issuer, audience, expiry, nonce).
 */

/** How long a discovered configuration is kept before it is read again (keys rotate through JWKS). */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
/** Seconds any request to the provider may take. */
const PROVIDER_TIMEOUT_S = 10;

interface Discovered {
  at: number;
  config: Promise<oidc.Configuration>;
}
const discovered = new WeakMap<AppContext, Discovered>();

function settings(ctx: AppContext) {
  const c = ctx.config.oidc;
  if (!c) throw new LoginError('Single sign-on is not enabled on this site.');
  return c;
}

/**
 * The provider's configuration, discovered once an hour per process. A failed discovery is
 * forgotten at once, so the next login tries again.
 */
async function configuration(ctx: AppContext): Promise<oidc.Configuration> {
  const c = settings(ctx);
  const now = Date.now();
  const kept = discovered.get(ctx);
  if (kept && now - kept.at < DISCOVERY_TTL_MS) return kept.config;
  const config = oidc
    .discovery(new URL(c.issuer), c.clientId, c.clientSecret, undefined, {
      // An http:// issuer is accepted by the configuration only on a loopback host (a test's provider).
      execute: c.insecureLoopback ? [oidc.allowInsecureRequests] : [],
      timeout: PROVIDER_TIMEOUT_S,
    })
    .then((found) => {
      // Without it, an ID token from the token endpoint is trusted by its TLS channel alone; with
      // it, its signature must verify against the provider's JWKS.
      oidc.enableNonRepudiationChecks(found);
      return found;
    });
  const entry = { at: now, config };
  discovered.set(ctx, entry);
  config.catch((err: unknown) => {
    if (discovered.get(ctx) === entry) discovered.delete(ctx);
    ctx.log.warn({ reason: err instanceof Error ? err.message : 'unknown' }, 'oidc discovery failed');
  });
  return config;
}

function redirectUri(ctx: AppContext): string {
  return `${ctx.config.publicUrl}/api/auth/oidc/callback`;
}

/**
 * The nonce of a login, derived from its PKCE verifier (kept server-side with the state, never
 * sent to the browser) with the site's secret: nothing more to store, and unguessable.
 */
function nonceOf(ctx: AppContext, verifier: string): string {
  return hmac(ctx.config.sessionSecret, 'oidc-nonce', verifier);
}

/** Starts a login: a single-use state (stored hashed, with the PKCE verifier) and the provider's URL. */
export async function beginOidcLogin(
  ctx: AppContext,
  linkUserId: number | null = null,
): Promise<{ url: string; state: string }> {
  const c = settings(ctx);
  let config: oidc.Configuration;
  try {
    config = await configuration(ctx);
  } catch {
    throw new LoginError(`${c.label} cannot be reached right now. Please try again later.`);
  }
  const state = randomToken(32);
  const verifier = oidc.randomPKCECodeVerifier();
  const now = ctx.clock.now();
  await storeOAuthState(ctx, now, {
    state_hash: sha256(state),
    provider: 'oidc',
    code_verifier: verifier,
    expires_at: new Date(now.getTime() + OAUTH_STATE_TTL_MS).toISOString(),
    link_user_id: linkUserId,
  });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri(ctx),
    scope: c.scopes.join(' '),
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce: nonceOf(ctx, verifier),
  });
  return { url: url.toString(), state };
}

/** The claims a login needs, from the ID token and, for what it lacks, the UserInfo endpoint. */
export interface OidcProfile {
  sub: string;
  handle: string;
  /** The address only when the provider says it verified it (email_verified true); else ''. */
  email: string;
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

export function profileOf(claims: Record<string, unknown>): OidcProfile {
  const email = claims.email_verified === true ? text(claims.email).slice(0, 320) : '';
  const handle =
    text(claims.preferred_username) ||
    text(claims.nickname) ||
    text(claims.name) ||
    (email ? email.slice(0, email.lastIndexOf('@')) : '') ||
    'student';
  return { sub: text(claims.sub), handle: handle.slice(0, 200), email };
}

/**
 * Finishes a login: the state checks of every provider's callback, then the code exchanged with
 * its PKCE verifier and the ID token verified by openid-client; any failure is a LoginError.
 */
export async function completeOidcLogin(
  ctx: AppContext,
  input: CallbackInput & { iss?: string },
): Promise<CallbackOutcome> {
  const c = settings(ctx);
  const stored = await takeCallbackState(ctx, 'oidc', input);
  const current = new URL(redirectUri(ctx));
  current.searchParams.set('code', stored.code);
  current.searchParams.set('state', stored.state);
  // RFC 9207: the issuer's name in the response, checked by openid-client when the provider sends it.
  if (input.iss !== undefined) current.searchParams.set('iss', input.iss);
  let claims: Record<string, unknown>;
  try {
    const config = await configuration(ctx);
    const tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: stored.code_verifier,
      expectedState: stored.state,
      expectedNonce: nonceOf(ctx, stored.code_verifier),
      idTokenExpected: true,
    });
    const idToken = tokens.claims();
    if (!idToken) throw new Error('no ID token');
    claims = { ...idToken };
    if (
      (!claims.email_verified || !text(claims.preferred_username)) &&
      config.serverMetadata().userinfo_endpoint
    ) {
      try {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
        // The ID token's claims win over the UserInfo answer's.
        claims = { ...info, ...claims };
        if (claims.email_verified !== true && info.email_verified === true && info.email) {
          claims.email = info.email;
          claims.email_verified = true;
        }
      } catch (err) {
        ctx.log.info({ reason: err instanceof Error ? err.message : 'unknown' }, 'oidc userinfo skipped');
      }
    }
  } catch (err) {
    if (err instanceof LoginError) throw err;
    ctx.log.warn(
      { provider: 'oidc', reason: err instanceof Error ? err.message : 'unknown' },
      'oidc login refused',
    );
    throw new LoginError(
      `${c.label} did not accept the login, or its answer could not be verified. Please try again.`,
    );
  }
  const profile = profileOf(claims);
  if (!profile.sub) throw new LoginError(`${c.label} sent an incomplete profile.`);
  return finishCallback(ctx, stored, input, {
    provider: 'oidc',
    providerUserId: profile.sub,
    handle: profile.handle,
    avatarUrl: '',
    email: profile.email,
  });
}
