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
  ): Promise<{ id: string; handle: string; avatarUrl: string; email: string }>;
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
      let email = str(user.email);
      if (!email) {
        try {
          const emails = (await getJson(`${config.apiUrl}/user/emails`, token)) as Record<string, unknown>[];
          const primary = Array.isArray(emails) ? emails.find((e) => e.primary && e.verified) : undefined;
          email = primary ? str(primary.email) : '';
        } catch {
          email = '';
        }
      }
      return { id: str(user.id), handle: str(user.login), avatarUrl: str(user.avatar_url), email };
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
      return {
        id,
        handle: str(user.username),
        avatarUrl: avatar && /^\d+$/.test(id) ? `https://cdn.discordapp.com/avatars/${id}/${avatar}.png` : '',
        email: user.verified === false ? '' : str(user.email),
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
