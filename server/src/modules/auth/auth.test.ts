import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { FakeOAuthProvider } from '../../../test/fake-oauth-provider.js';

/** Follows the browser's path through the real login: start, provider, callback. */
async function oauthLogin(t: TestApp, provider: 'github' | 'discord', fake: FakeOAuthProvider) {
  const start = await t.app.inject({ method: 'GET', url: `/api/auth/${provider}` });
  expect(start.statusCode).toBe(302);
  const stateCookie = start.cookies.find((c) => c.name === 'ctf_oauth_state');
  expect(stateCookie?.httpOnly).toBe(true);
  const toProvider = await fetch(start.headers.location as string, { redirect: 'manual' });
  const back = new URL(toProvider.headers.get('location')!);
  const callback = await t.app.inject({
    method: 'GET',
    url: back.pathname + back.search,
    headers: { cookie: `ctf_oauth_state=${stateCookie!.value}` },
  });
  return { start, callback, back, stateCookie: stateCookie!.value, fake };
}

for (const kind of testDatabaseKinds()) {
  describe(`auth on ${kind}`, () => {
    const fake = new FakeOAuthProvider();
    let t: TestApp;
    beforeAll(async () => {
      await fake.start();
    });
    afterAll(async () => {
      await fake.stop();
    });
    beforeEach(async () => {
      t = await buildTestApp(kind, { ...fake.env(), ADMINS: 'github:the-admin' });
      fake.denyWith = null;
    });
    afterEach(async () => {
      await t.close();
    });

    it('logs in through GitHub with state and PKCE and starts a session', async () => {
      fake.nextProfile = { id: '42', login: 'Octo', email: 'octo@example.org' };
      const { callback, start } = await oauthLogin(t, 'github', fake);
      const authorize = new URL(start.headers.location as string);
      expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorize.searchParams.get('redirect_uri')).toBe(`${TEST_ORIGIN}/api/auth/github/callback`);
      expect(callback.statusCode).toBe(200);
      expect(callback.body).toContain('data-type="OAUTH_SUCCESS"');
      expect(callback.headers['referrer-policy']).toBe('no-referrer');
      const session = callback.cookies.find((c) => c.name === 'ctf_session');
      expect(session?.httpOnly).toBe(true);
      expect(session?.sameSite).toBe('Lax');
      const info = await t.app.inject({
        method: 'GET',
        url: '/api/user/info',
        headers: { cookie: `ctf_session=${session!.value}` },
      });
      expect(info.json()).toMatchObject({
        username: 'Octo',
        email: 'octo@example.org',
        team: 'None',
        is_admin: false,
      });
      // Only the hash of the token is stored.
      const rows = await t.ctx.database.db.selectFrom('sessions').select('token_hash').execute();
      expect(rows.map((r) => r.token_hash)).not.toContain(session!.value);
    });

    it('logs in through Discord and keeps the username on later logins', async () => {
      fake.nextProfile = { id: '777', login: 'discordian', email: 'd@example.org' };
      const first = await oauthLogin(t, 'discord', fake);
      expect(first.callback.body).toContain('OAUTH_SUCCESS');
      fake.nextProfile = { id: '777', login: 'renamed', email: 'new@example.org' };
      await oauthLogin(t, 'discord', fake);
      const users = await t.ctx.database.db.selectFrom('users').select(['username', 'email']).execute();
      expect(users).toEqual([{ username: 'discordian', email: 'new@example.org' }]);
    });

    it('gives a taken name (case and look-alike insensitive) a numeric suffix, never the same account', async () => {
      fake.nextProfile = { id: '1', login: 'Alice' };
      await oauthLogin(t, 'github', fake);
      fake.nextProfile = { id: '2', login: 'ａｌｉｃｅ' }; // full-width look-alike
      await oauthLogin(t, 'discord', fake);
      const users = await t.ctx.database.db.selectFrom('users').select('username').orderBy('id').execute();
      expect(users.map((u) => u.username)).toEqual(['Alice', 'alice2']);
    });

    it('grants admin to accounts named in ADMINS', async () => {
      fake.nextProfile = { id: '9', login: 'The-Admin' };
      const { callback } = await oauthLogin(t, 'github', fake);
      const session = callback.cookies.find((c) => c.name === 'ctf_session')!;
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/admin/authenticated',
        headers: { cookie: `ctf_session=${session.value}` },
      });
      expect(res.json()).toEqual({ message: 'Authorized' });
    });

    it('refuses a callback without the state cookie, with a wrong state, or replayed', async () => {
      const start = await t.app.inject({ method: 'GET', url: '/api/auth/github' });
      const state = start.cookies.find((c) => c.name === 'ctf_oauth_state')!.value;
      const toProvider = await fetch(start.headers.location as string, { redirect: 'manual' });
      const back = new URL(toProvider.headers.get('location')!);
      const noCookie = await t.app.inject({ method: 'GET', url: back.pathname + back.search });
      expect(noCookie.statusCode).toBe(400);
      expect(noCookie.body).toContain('OAUTH_ERROR');
      const wrong = await t.app.inject({
        method: 'GET',
        url: back.pathname + back.search,
        headers: { cookie: `ctf_oauth_state=${state}x` },
      });
      expect(wrong.body).toContain('OAUTH_ERROR');
      // The state was not consumed by the failures above (they never matched), so this one works...
      const ok = await t.app.inject({
        method: 'GET',
        url: back.pathname + back.search,
        headers: { cookie: `ctf_oauth_state=${state}` },
      });
      expect(ok.body).toContain('OAUTH_SUCCESS');
      // ...and it works once.
      const replay = await t.app.inject({
        method: 'GET',
        url: back.pathname + back.search,
        headers: { cookie: `ctf_oauth_state=${state}` },
      });
      expect(replay.body).toContain('OAUTH_ERROR');
      expect(replay.cookies.find((c) => c.name === 'ctf_session')).toBeUndefined();
    });

    it('refuses a state issued for another provider (mix-up)', async () => {
      const start = await t.app.inject({ method: 'GET', url: '/api/auth/github' });
      const state = start.cookies.find((c) => c.name === 'ctf_oauth_state')!.value;
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/auth/discord/callback?code=abc&state=${state}`,
        headers: { cookie: `ctf_oauth_state=${state}` },
      });
      expect(res.body).toContain('OAUTH_ERROR');
    });

    it('shows the provider refusal as an OAUTH_ERROR message', async () => {
      fake.denyWith = 'access_denied';
      const { callback } = await oauthLogin(t, 'github', fake);
      expect(callback.body).toContain('data-type="OAUTH_ERROR"');
      expect(callback.body).toContain('Login was cancelled.');
    });

    it('refuses an expired state', async () => {
      const start = await t.app.inject({ method: 'GET', url: '/api/auth/github' });
      const state = start.cookies.find((c) => c.name === 'ctf_oauth_state')!.value;
      const toProvider = await fetch(start.headers.location as string, { redirect: 'manual' });
      const back = new URL(toProvider.headers.get('location')!);
      t.clock.advance(11 * 60 * 1000);
      const res = await t.app.inject({
        method: 'GET',
        url: back.pathname + back.search,
        headers: { cookie: `ctf_oauth_state=${state}` },
      });
      expect(res.body).toContain('OAUTH_ERROR');
    });

    it('answers Authorized only with a live session, and logout ends it on the server', async () => {
      expect((await t.visitor().get('/api/authenticated')).status).toBe(401);
      const alice = await t.login('alice');
      expect((await alice.get('/api/authenticated')).body).toEqual({ message: 'Authorized' });
      expect((await alice.get('/api/admin/authenticated')).status).toBe(403);
      const out = await alice.get('/api/auth/logout');
      expect(out.status).toBe(200);
      expect((await alice.get('/api/authenticated')).status).toBe(401);
      expect((await t.visitor().get('/api/user/info')).body).toBeNull();
    });

    it('refuses local sign-in when an OAuth provider is configured', async () => {
      const res = await t.visitor().post('/api/auth/local', { username: 'bob' });
      expect(res.status).toBe(403);
    });

    it('refuses POSTs without our Origin', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/local',
        payload: { username: 'bob' },
        headers: { origin: 'https://evil.example' },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/Cross-site/);
    });
  });

  describe(`local sign-in on ${kind}`, () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await buildTestApp(kind);
    });
    afterEach(async () => {
      await t.close();
    });

    it('signs in by name on a loopback trial, optionally as admin, with a fresh cookie each time', async () => {
      const first = await t.visitor().post('/api/auth/local', { username: 'trial', admin: true });
      expect(first.status).toBe(200);
      const cookie1 = String(first.headers['set-cookie']).match(/ctf_session=([^;]+)/)![1]!;
      const info = await t.app.inject({
        method: 'GET',
        url: '/api/user/info',
        headers: { cookie: `ctf_session=${cookie1}` },
      });
      expect(info.json()).toMatchObject({ username: 'trial', is_admin: true });
      const second = await t.app.inject({
        method: 'POST',
        url: '/api/auth/local',
        payload: { username: 'trial' },
        headers: { origin: TEST_ORIGIN, cookie: `ctf_session=${cookie1}` },
      });
      const cookie2 = String(second.headers['set-cookie']).match(/ctf_session=([^;]+)/)![1]!;
      expect(cookie2).not.toBe(cookie1);
      const old = await t.app.inject({
        method: 'GET',
        url: '/api/authenticated',
        headers: { cookie: `ctf_session=${cookie1}` },
      });
      expect(old.statusCode).toBe(401);
    });

    it('rejects bad names with 400', async () => {
      for (const username of ['', ' ', 'a'.repeat(60), '<script>', 'x\u0000y']) {
        const res = await t.visitor().post('/api/auth/local', { username });
        expect(res.status).toBe(400);
        expect(typeof res.body.message).toBe('string');
      }
    });
  });
}

describe('local sign-in on a public origin', () => {
  it('is never offered when PUBLIC_URL is not loopback', async () => {
    const t = await buildTestApp('sqlite', { PUBLIC_URL: 'https://ctf.example.org' });
    try {
      expect(t.config.localLogin).toBe(false);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/local',
        payload: { username: 'x' },
        headers: { origin: 'https://ctf.example.org' },
      });
      expect(res.statusCode).toBe(403);
    } finally {
      await t.close();
    }
  });
});
