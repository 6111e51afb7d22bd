// Before jsdom (see the module): jsdom loaded first would take over Node's fetch.
import '../../../test/native-fetch-first.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { FakeOAuthProvider } from '../../../test/fake-oauth-provider.js';
import { JSDOM } from 'jsdom';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { POPUP_SCRIPT, callbackPage } from './callback-page.js';
import { SESSION_TTL_MS } from './sessions.service.js';

/**
 * Attacks on login and sessions (DESIGN.md §3), beyond the happy paths of auth.test.ts: forged,
 * expired and orphaned cookies, fixation, server-side logout, OAuth state abuse (missing, wrong,
 * swapped, replayed, mixed up between providers), a stolen code redeemed without its PKCE
 * verifier, and the callback page's postMessage target.
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

const sessionOf = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.find((c) => c.name === 'ctf_session' && c.value !== '')?.value;

async function authenticatedWith(t: TestApp, cookie: string): Promise<number> {
  return (await t.app.inject({ method: 'GET', url: '/api/authenticated', headers: { cookie } })).statusCode;
}

for (const kind of testDatabaseKinds()) {
  describe(`session attacks on ${kind}`, () => {
    let t: TestApp;
    let alice: TestClient;
    let token: string;
    beforeEach(async () => {
      t = await buildTestApp(kind);
      alice = await t.login('alice');
      token = alice.cookie!.replace('ctf_session=', '');
    });
    afterEach(async () => {
      await t.close();
    });

    it('refuses forged cookies: random, altered, extended, oversized, SQL-ish, or the stored hash itself', async () => {
      const stored = await t.ctx.database.db
        .selectFrom('sessions')
        .select('token_hash')
        .executeTakeFirstOrThrow();
      const flipped = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
      const forged = [
        randomToken(32),
        flipped,
        `${token}x`,
        token.slice(0, -1),
        token.toUpperCase(),
        stored.token_hash,
        sha256(token),
        'x'.repeat(5000),
        "' or '1'='1",
        '%00',
        '',
      ];
      for (const value of forged) {
        expect(await authenticatedWith(t, `ctf_session=${value}`), value.slice(0, 40)).toBe(401);
        const info = await t.app.inject({
          method: 'GET',
          url: '/api/user/info',
          headers: { cookie: `ctf_session=${value}` },
        });
        expect(info.json(), value.slice(0, 40)).toBeNull();
      }
      // Cookie names are exact: a differently cased name is not the session.
      expect(await authenticatedWith(t, `CTF_SESSION=${token}`)).toBe(401);
      expect(await authenticatedWith(t, alice.cookie!)).toBe(200);
    });

    it('ends a session at its expiry, not later', async () => {
      t.clock.advance(SESSION_TTL_MS - 60_000);
      expect(await authenticatedWith(t, alice.cookie!)).toBe(200);
      t.clock.advance(60_000);
      expect(await authenticatedWith(t, alice.cookie!)).toBe(401);
      expect((await alice.post('/api/team/create', { team_name: 'Late' })).status).toBe(401);
    });

    it("kills a removed user's sessions at their next request", async () => {
      const admin = await t.login('boss', { admin: true });
      const phone = await t.login('alice');
      expect(await authenticatedWith(t, phone.cookie!)).toBe(200);
      const res = await admin.post('/api/admin/remove_user', { user_id: alice.user!.id });
      expect(res.status).toBe(200);
      for (const c of [alice, phone]) {
        expect(await authenticatedWith(t, c.cookie!)).toBe(401);
        expect((await c.get('/api/user/info')).body).toBeNull();
        expect((await c.post('/api/team/create', { team_name: 'Ghost' })).status).toBe(401);
      }
      const left = await t.ctx.database.db
        .selectFrom('sessions')
        .select('user_id')
        .where('user_id', '=', alice.user!.id)
        .execute();
      expect(left).toEqual([]);
      // Signing in again with the same identity makes a new account: the old session does not come back.
      const again = await t.login('alice');
      expect(again.user!.id).not.toBe(alice.user!.id);
      expect(await authenticatedWith(t, alice.cookie!)).toBe(401);
    });

    it('takes admin rights away at the next request, not the next login', async () => {
      const boss = await t.login('boss', { admin: true });
      const deputy = await t.login('deputy', { admin: true });
      expect((await deputy.get('/api/admin/get_users')).status).toBe(200);
      expect((await boss.post('/api/admin/remove_admin', { username: 'deputy' })).status).toBe(200);
      expect((await deputy.get('/api/admin/get_users')).status).toBe(403);
      expect((await deputy.post('/api/admin/update_site_info', { activated: true })).status).toBe(403);
    });

    it('logout deletes the session on the server: the old cookie is dead, other devices live on', async () => {
      const laptop = await t.login('alice');
      const out = await alice.get('/api/auth/logout');
      expect(out.status).toBe(200);
      const rows = await t.ctx.database.db.selectFrom('sessions').select('token_hash').execute();
      expect(rows.map((r) => r.token_hash)).not.toContain(sha256(token));
      // Replaying the cookie value (as a thief who copied it would) finds nothing.
      expect(await authenticatedWith(t, `ctf_session=${token}`)).toBe(401);
      expect(await authenticatedWith(t, laptop.cookie!)).toBe(200);
    });

    it('never adopts a session id chosen before login (fixation)', async () => {
      const planted = randomToken(32);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/local',
        payload: { username: 'fixated' },
        headers: { origin: TEST_ORIGIN, cookie: `ctf_session=${planted}` },
      });
      const issued = sessionOf(res)!;
      expect(issued).toBeDefined();
      expect(issued).not.toBe(planted);
      expect(await authenticatedWith(t, `ctf_session=${planted}`)).toBe(401);
      const hashes = (await t.ctx.database.db.selectFrom('sessions').select('token_hash').execute()).map(
        (r) => r.token_hash,
      );
      expect(hashes).not.toContain(sha256(planted));
      expect(hashes).toContain(sha256(issued));
    });
  });

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

describe('the OAuth callback page', () => {
  /** Runs the callback page and its script in a DOM served from `pageUrl`, with a recording opener. */
  function runCallback(pageUrl: string, type: 'OAUTH_SUCCESS' | 'OAUTH_ERROR') {
    const dom = new JSDOM(
      callbackPage(type === 'OAUTH_SUCCESS' ? { type } : { type, message: 'nope <b>x</b>' }),
      {
        url: pageUrl,
        runScripts: 'outside-only',
      },
    );
    const posted: { data: unknown; target: string }[] = [];
    Object.defineProperty(dom.window, 'opener', {
      value: { closed: false, postMessage: (data: unknown, target: string) => posted.push({ data, target }) },
    });
    dom.window.close = () => {};
    dom.window.eval(POPUP_SCRIPT);
    return posted;
  }

  it("posts the outcome to the opener with the site's own origin as target, never '*'", () => {
    for (const type of ['OAUTH_SUCCESS', 'OAUTH_ERROR'] as const) {
      const posted = runCallback(`${TEST_ORIGIN}/api/auth/github/callback?code=x&state=y`, type);
      expect(posted).toHaveLength(1);
      expect(posted[0]!.target).toBe(TEST_ORIGIN);
      expect(posted[0]!.data).toMatchObject({ type });
    }
    expect(POPUP_SCRIPT).not.toMatch(/postMessage\([^)]*['"]\*['"]/);
  });

  it('escapes the message it carries', () => {
    const html = callbackPage({ type: 'OAUTH_ERROR', message: '"><script>alert(1)</script>' });
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('data-message="&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;"');
    const body = new JSDOM(html).window.document.body;
    expect(body.getAttribute('data-message')).toBe('"><script>alert(1)</script>');
    expect(body.querySelectorAll('script')).toHaveLength(1);
  });
});
