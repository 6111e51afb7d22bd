import type { OAuthProvider } from '@ctf/contract';
import type { Config, OAuthProviderConfig } from '../../config.js';

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

const FETCH_TIMEOUT_MS = 10_000;

async function getJson(url: string, accessToken: string): Promise<unknown> {
  const res = await fetch(url, {
    headers: {
      Authorization: `Bearer ${accessToken}`,
      Accept: 'application/json',
      'User-Agent': 'ctf-platform',
    },
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`profile request failed with ${res.status}`);
  return res.json();
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
      const user = (await getJson(`${config.apiUrl}/user`, token)) as Record<string, unknown>;
      // Every verified address counts for the registration's domain rule ({API}/user/emails, with
      // the user:email scope); the account keeps the public one, else the verified primary.
      let listed: Record<string, unknown>[] = [];
      try {
        const emails = await getJson(`${config.apiUrl}/user/emails`, token);
        listed = Array.isArray(emails) ? (emails as Record<string, unknown>[]).slice(0, 100) : [];
      } catch {
        listed = [];
      }
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
