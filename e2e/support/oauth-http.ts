import type { FakeOAuthProvider, FakeProfile } from '../../server/test/fake-oauth-provider.js';
import { HttpClient } from './http.js';

/**
 * Logs in over plain HTTP through the real OAuth flow (start, fake provider, callback), the way
 * a browser would, and returns a client holding the session cookie. For identities local sign-in
 * cannot make, such as a handle full of HTML.
 */
export async function oauthClient(
  baseUrl: string,
  fake: FakeOAuthProvider,
  profile: FakeProfile,
  provider: 'github' | 'discord' = 'github',
): Promise<HttpClient> {
  fake.nextProfile = profile;
  const start = await fetch(`${baseUrl}/api/auth/${provider}`, { redirect: 'manual' });
  const state = start.headers
    .getSetCookie()
    .find((c) => c.startsWith('ctf_oauth_state='))
    ?.split(';')[0];
  if (!state) throw new Error(`no state cookie from /api/auth/${provider} (${start.status})`);
  const toProvider = await fetch(start.headers.get('location')!, { redirect: 'manual' });
  const back = await fetch(toProvider.headers.get('location')!, {
    redirect: 'manual',
    headers: { cookie: state },
  });
  const session = back.headers
    .getSetCookie()
    .find((c) => /^(__Host-)?ctf_session=./.test(c))
    ?.split(';')[0];
  if (!session) throw new Error(`login of ${profile.login} failed: ${back.status} ${await back.text()}`);
  const client = new HttpClient(baseUrl);
  client.cookie = session;
  return client;
}

/** The value of a client's session cookie, for a browser context's addCookies. */
export function sessionValue(client: HttpClient): string {
  return client.cookie.slice(client.cookie.indexOf('=') + 1);
}
