// Before jsdom (see the module): jsdom loaded first would take over Node's fetch.
import '../../../test/native-fetch-first.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { authenticatedWith, sessionOf } from '../../../test/sessions.js';
import { JSDOM } from 'jsdom';
import { randomToken, sha256 } from '../../lib/crypto.js';
import { POPUP_SCRIPT, callbackPage } from './callback-page.js';
import { SESSION_TTL_MS } from './sessions.service.js';

/**
 * Attacks on login and sessions (docs/product.md §11), beyond the happy paths of auth.test.ts: forged,
 * expired and orphaned cookies, fixation, server-side logout, and the callback page's postMessage
 * target. The attacks on the OAuth flow itself: oauth.attacks.test.ts.
 */

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
