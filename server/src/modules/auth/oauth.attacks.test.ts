import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { FakeOAuthProvider } from '../../../test/fake-oauth-provider.js';
import { authenticatedWith, sessionOf } from '../../../test/sessions.js';
import { randomToken } from '../../lib/crypto.js';

/**
 * Attacks on the OAuth login (docs/product.md §11): state abuse (missing, wrong, swapped, replayed, mixed
 * up between providers), a stolen code redeemed without its PKCE verifier, a session planted
 * before the login, reflected provider errors, and look-alike names for admins and accounts.
 */

interface Started {
  state: string;
  back: URL;
}

/** Starts a login and lets the fake provider approve it, stopping before our callback. */
async function startLogin(t: TestApp, provider: 'github' | 'discord'): Promise<Started> {
  const start = await t.app.inject({ method: 'GET', url: `/api/auth/${provider}` });
  const state = start.cookies.find((c) => c.name === 'ctf_oauth_state')!.value;
  const toProvider = await fetch(start.headers.location as string, { redirect: 'manual' });
  return { state, back: new URL(toProvider.headers.get('location')!) };
}

function callback(t: TestApp, provider: string, query: string, cookie?: string) {
  return t.app.inject({
    method: 'GET',
    url: `/api/auth/${provider}/callback${query}`,
    headers: cookie === undefined ? {} : { cookie },
  });
}

for (const kind of testDatabaseKinds()) {
  describe(`OAuth attacks on ${kind}`, () => {
    const fake = new FakeOAuthProvider();
    let t: TestApp;
    beforeAll(async () => {
      await fake.start();
    });
    afterAll(async () => {
      await fake.stop();
    });
    beforeEach(async () => {
      t = await buildTestApp(kind, { ...fake.env(), ADMINS: 'github:the-admin,discord:boss' });
      fake.denyWith = null;
      fake.nextProfile = { id: '5001', login: 'victim' };
    });
    afterEach(async () => {
      await t.close();
    });

    const users = () => t.ctx.database.db.selectFrom('users').select('username').execute();

    it('refuses a callback whose state is missing from the query, or whose cookie is empty', async () => {
      const { state, back } = await startLogin(t, 'github');
      const code = back.searchParams.get('code')!;
      for (const [query, cookie] of [
        [`?code=${code}`, `ctf_oauth_state=${state}`],
        [`?code=${code}&state=`, `ctf_oauth_state=${state}`],
        [`?code=${code}&state=${state}`, 'ctf_oauth_state='],
        [`?code=${code}&state=${state}&state=${state}`, `ctf_oauth_state=${state}`],
      ] as const) {
        const res = await callback(t, 'github', query, cookie);
        expect(res.statusCode, query).toBe(400);
        expect(res.body, query).toContain('data-type="OAUTH_ERROR"');
        expect(sessionOf(res), query).toBeUndefined();
      }
      expect(await users()).toEqual([]);
    });

    it("refuses one browser's state with another browser's cookie (login CSRF)", async () => {
      const attacker = await startLogin(t, 'github');
      const victim = await startLogin(t, 'github');
      // The attacker lures the victim to the attacker's own callback URL: the victim's cookie does not match.
      const res = await callback(t, 'github', attacker.back.search, `ctf_oauth_state=${victim.state}`);
      expect(res.body).toContain('OAUTH_ERROR');
      expect(sessionOf(res)).toBeUndefined();
    });

    it('uses a state once even when the login behind it failed', async () => {
      fake.denyWith = 'server_error';
      const denied = await startLogin(t, 'github');
      fake.denyWith = null;
      const first = await callback(
        t,
        'github',
        `?code=forged&state=${denied.state}`,
        `ctf_oauth_state=${denied.state}`,
      );
      expect(first.body).toContain('OAUTH_ERROR');
      const again = await callback(
        t,
        'github',
        `?code=forged&state=${denied.state}`,
        `ctf_oauth_state=${denied.state}`,
      );
      expect(again.body).toContain('has expired or was already used');
      expect(await t.ctx.database.db.selectFrom('oauth_states').select('state_hash').execute()).toEqual([]);
    });

    it('refuses a Discord state at the GitHub callback too (mix-up, both ways)', async () => {
      const { state, back } = await startLogin(t, 'discord');
      const res = await callback(
        t,
        'github',
        `?code=${back.searchParams.get('code')}&state=${state}`,
        `ctf_oauth_state=${state}`,
      );
      expect(res.body).toContain('OAUTH_ERROR');
      expect(sessionOf(res)).toBeUndefined();
      expect(await users()).toEqual([]);
    });

    it('a stolen code is useless without its PKCE verifier', async () => {
      const victim = await startLogin(t, 'github');
      const authorize = fake.authorizeRequests.at(-1)!;
      expect(authorize.get('code_challenge_method')).toBe('S256');
      expect(authorize.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // The attacker starts their own login (their own state, cookie and verifier) and injects the victim's code.
      const attacker = await startLogin(t, 'github');
      const stolenCode = victim.back.searchParams.get('code')!;
      const res = await callback(
        t,
        'github',
        `?code=${stolenCode}&state=${attacker.state}`,
        `ctf_oauth_state=${attacker.state}`,
      );
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('GitHub did not accept the login.');
      expect(sessionOf(res)).toBeUndefined();
      expect(await users()).toEqual([]);
    });

    it('sends the stored verifier: a login whose verifier was swapped fails at the provider', async () => {
      const { state, back } = await startLogin(t, 'github');
      await t.ctx.database.db
        .updateTable('oauth_states')
        .set({ code_verifier: randomToken(32) })
        .execute();
      const res = await callback(t, 'github', back.search, `ctf_oauth_state=${state}`);
      expect(res.body).toContain('OAUTH_ERROR');
      expect(sessionOf(res)).toBeUndefined();
      // The control: an untouched login with the same provider works.
      const ok = await startLogin(t, 'github');
      expect((await callback(t, 'github', ok.back.search, `ctf_oauth_state=${ok.state}`)).body).toContain(
        'OAUTH_SUCCESS',
      );
    });

    it('replaces a session planted before an OAuth login (fixation) and ends it', async () => {
      const planted = await t.login('attacker');
      const { state, back } = await startLogin(t, 'github');
      const res = await callback(t, 'github', back.search, `ctf_oauth_state=${state}; ${planted.cookie}`);
      const issued = sessionOf(res)!;
      expect(issued).toBeDefined();
      expect(`ctf_session=${issued}`).not.toBe(planted.cookie);
      expect(await authenticatedWith(t, planted.cookie!)).toBe(401);
      const me = await t.app.inject({
        method: 'GET',
        url: '/api/user/info',
        headers: { cookie: `ctf_session=${issued}` },
      });
      expect(me.json().username).toBe('victim');
    });

    it('never reflects the error or description a provider redirect carries', async () => {
      const payload = '<img src=x onerror=alert(1)>';
      const res = await callback(
        t,
        'github',
        `?error=${encodeURIComponent(payload)}&error_description=${encodeURIComponent(payload)}`,
      );
      expect(res.body).toContain('OAUTH_ERROR');
      expect(res.body).not.toContain('<img');
      expect(res.body).not.toContain('onerror');
    });

    it('grants ADMINS rights to the named handle only, never to a look-alike of it', async () => {
      for (const [i, [provider, login]] of (
        [
          ['github', 'ｔｈｅ-ａｄｍｉｎ'],
          ['github', 'the\u2010admin'],
          ['discord', 'ｂｏｓｓ'],
          ['discord', 'boss\u200b'],
          ['discord', 'bοss'],
        ] as const
      ).entries()) {
        fake.nextProfile = { id: `${900 + i}`, login };
        const { state, back } = await startLogin(t, provider);
        const res = await callback(t, provider, back.search, `ctf_oauth_state=${state}`);
        expect(res.body, login).toContain('OAUTH_SUCCESS');
        const admin = await t.app.inject({
          method: 'GET',
          url: '/api/admin/authenticated',
          headers: { cookie: `ctf_session=${sessionOf(res)}` },
        });
        expect(admin.statusCode, `${provider}:${login}`).toBe(403);
      }
      fake.nextProfile = { id: '999', login: 'The-Admin' };
      const { state, back } = await startLogin(t, 'github');
      const res = await callback(t, 'github', back.search, `ctf_oauth_state=${state}`);
      const admin = await t.app.inject({
        method: 'GET',
        url: '/api/admin/authenticated',
        headers: { cookie: `ctf_session=${sessionOf(res)}` },
      });
      expect(admin.statusCode).toBe(200);
    });

    it('keeps an account to its provider identity: a look-alike name is another user with another name', async () => {
      fake.nextProfile = { id: '1', login: 'alice' };
      const a = await startLogin(t, 'github');
      const first = sessionOf(await callback(t, 'github', a.back.search, `ctf_oauth_state=${a.state}`))!;
      for (const [i, login] of ['ALICE', 'ａｌｉｃｅ', ' alice ', 'alice\u00ad'].entries()) {
        fake.nextProfile = { id: `${100 + i}`, login };
        const s = await startLogin(t, 'discord');
        const cookie = sessionOf(await callback(t, 'discord', s.back.search, `ctf_oauth_state=${s.state}`))!;
        const me = await t.app.inject({
          method: 'GET',
          url: '/api/user/info',
          headers: { cookie: `ctf_session=${cookie}` },
        });
        expect(me.json().username, login).not.toBe('alice');
        expect(me.json()._id, login).not.toBe('1');
      }
      const original = await t.app.inject({
        method: 'GET',
        url: '/api/user/info',
        headers: { cookie: `ctf_session=${first}` },
      });
      expect(original.json().username).toBe('alice');
      const keys = (await t.ctx.database.db.selectFrom('users').select('username_key').execute()).map(
        (u) => u.username_key,
      );
      expect(new Set(keys).size).toBe(keys.length);
    });
  });
}
