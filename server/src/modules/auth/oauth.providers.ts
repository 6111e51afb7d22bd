import type { OAuthProvider } from '@ctf/contract';
import type { Config, OAuthProviderConfig } from '../../config.js';
import { requestJson } from '../../lib/http-json.js';

/** What the rest of the login needs from a provider, as data read from configuration. */
export interface ProviderSpec {
  id: OAuthProvider;
  label: string;
  config: OAuthProviderConfig;
  scopes: string[];
  /** PKCE where the provider supports it. */
  pkce: boolean;
  /** Reads the profile with an access token. */
  fetchProfile(
    accessToken: string,
  ): Promise<{ id: string; handle: string; avatarUrl: string; email: string; verifiedEmails: string[] }>;
}

async function getJson(url: string, accessToken: string): Promise<unknown> {
  const answer = await requestJson({
    url,
    headers: {
      authorization: `Bearer ${accessToken}`,
      accept: 'application/json',
      'user-agent': 'ctf-platform',
    },
  });
  if (answer.status < 200 || answer.status > 299)
    throw new Error(`profile request failed with ${answer.status}`);
  return answer.data;
}

/**
 * The authorization code exchanged for an access token (RFC 6749 §4.1.3), as arctic's
 * OAuth2Client sends it (client credentials in HTTP Basic, PKCE's verifier when used), on the
 * server's own HTTP client (lib/http-json.ts) with its time and size budgets. GitHub reports a
 * refused code with status 200 and an `error` field; every other failure is a status.
 */
export async function exchangeCode(
  config: OAuthProviderConfig,
  redirectUri: string,
  code: string,
  codeVerifier: string | null,
): Promise<string> {
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  if (codeVerifier !== null) form.set('code_verifier', codeVerifier);
  const credentials = Buffer.from(`${config.clientId}:${config.clientSecret}`, 'utf8').toString('base64');
  const answer = await requestJson({
    url: config.tokenUrl,
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      'user-agent': 'ctf-platform',
      authorization: `Basic ${credentials}`,
    },
    body: form.toString(),
  });
  const data = answer.data as Record<string, unknown> | null;
  if (answer.status !== 200 || typeof data !== 'object' || data === null || 'error' in data)
    throw new Error(`token request failed with ${answer.status}`);
  if (typeof data.access_token !== 'string' || data.access_token === '') throw new Error('no access token');
  return data.access_token;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

function githubSpec(config: OAuthProviderConfig): ProviderSpec {
  return {
    id: 'github',
    label: 'GitHub',
    config,
    scopes: ['read:user', 'user:email'],
    pkce: true,
    async fetchProfile(token) {
      // Every verified address counts for the registration's domain rule ({API}/user/emails, with
      // the user:email scope); the account keeps the public one, else the verified primary. The
      // two are asked at once; the addresses are optional (a failure there lists none).
      const [user, emails] = (await Promise.all([
        getJson(`${config.apiUrl}/user`, token),
        getJson(`${config.apiUrl}/user/emails`, token).catch(() => []),
      ])) as [Record<string, unknown>, unknown];
      const listed = Array.isArray(emails) ? (emails as Record<string, unknown>[]).slice(0, 100) : [];
      const verifiedEmails = listed
        .filter((e) => e.verified === true)
        .map((e) => str(e.email))
        .filter(Boolean);
      const primary = listed.find((e) => e.primary && e.verified);
      const email = str(user.email) || (primary ? str(primary.email) : '');
      if (str(user.email) && !verifiedEmails.includes(str(user.email))) verifiedEmails.push(str(user.email));
      return {
        id: str(user.id),
        handle: str(user.login),
        avatarUrl: str(user.avatar_url),
        email,
        verifiedEmails,
      };
    },
  };
}

function discordSpec(config: OAuthProviderConfig): ProviderSpec {
  return {
    id: 'discord',
    label: 'Discord',
    config,
    scopes: ['identify', 'email'],
    pkce: false,
    async fetchProfile(token) {
      const user = (await getJson(`${config.apiUrl}/users/@me`, token)) as Record<string, unknown>;
      const id = str(user.id);
      const avatar = str(user.avatar);
      const email = user.verified === false ? '' : str(user.email);
      return {
        id,
        handle: str(user.username),
        avatarUrl: avatar && /^\d+$/.test(id) ? `https://cdn.discordapp.com/avatars/${id}/${avatar}.png` : '',
        email,
        verifiedEmails: user.verified === true && email ? [email] : [],
      };
    },
  };
}

/** The configured provider of that name, or null when its client id and secret are not set. */
export function providerSpec(config: Config, id: OAuthProvider): ProviderSpec | null {
  const c = config.oauth[id];
  if (!c) return null;
  return id === 'github' ? githubSpec(c) : discordSpec(c);
}
