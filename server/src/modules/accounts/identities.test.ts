import { IDENTITY_MESSAGES } from '@ctf/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { FakeOAuthProvider } from '../../../test/fake-oauth-provider.js';
import { OidcTestProvider } from '../../../test/oidc-test-provider.js';
import { SmtpTestServer, linkIn } from '../../../test/smtp-test-server.js';
import { sessionOf } from '../../../test/sessions.js';

/**
 * One person, one account, several ways in: linking GitHub, single sign-on and an e-mail address to
 * a signed-in account, signing in by any of them, and unlinking any but the last.
 */

const CALLBACK = `${TEST_ORIGIN}/api/auth/oidc/callback`;

for (const kind of testDatabaseKinds()) {
  describe(`linked ways in on ${kind}`, () => {
    const fake = new FakeOAuthProvider();
    const op = new OidcTestProvider();
    const smtp = new SmtpTestServer();
    let t: TestApp;
    beforeAll(async () => {
      await fake.start();
      await op.start(CALLBACK);
      await smtp.start();
    });
    afterAll(async () => {
      await fake.stop();
      await op.stop();
      await smtp.stop();
    });
    beforeEach(async () => {
      t = await buildTestApp(kind, { ...fake.env(), ...op.env(), ...smtp.env() });
      op.nextAccount = 'sso-ada';
      op.accounts.set('sso-ada', {
        email: 'ada@uni.example',
        email_verified: true,
        preferred_username: 'ada.l',
      });
      fake.nextProfile = { id: '42', login: 'ada-gh', email: 'ada@home.example' };
    });
    afterEach(async () => {
      await t.close();
    });

    const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
    const post = (url: string, payload: object, cookie: string) =>
      t.app.inject({
        method: 'POST',
        url,
        payload,
        headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', cookie },
      });

    /** Through a provider: start (with the cookie and query given), the provider, the callback. */
    async function viaProvider(provider: 'github' | 'oidc', query = '', session = '') {
      const start = await get(`/api/auth/${provider}${query}`, session);
      if (start.statusCode !== 302) return start;
      const state = start.cookies.find((c) => c.name === 'ctf_oauth_state')!.value;
      const back =
        provider === 'oidc'
          ? await op.approve(start.headers.location as string, CALLBACK)
          : new URL(
              (await fetch(start.headers.location as string, { redirect: 'manual' })).headers.get(
                'location',
              )!,
            );
      return get(
        back.pathname + back.search,
        [`ctf_oauth_state=${state}`, session].filter(Boolean).join('; '),
      );
    }

    it('links single sign-on and an e-mail address to a GitHub account, and signs in by each', async () => {
      const first = await viaProvider('github');
      const session = `ctf_session=${sessionOf(first)!}`;
      let mine = (await get('/api/user/identities', session)).json();
      expect(mine).toEqual([{ provider: 'github', name: 'ada-gh', linkedAt: expect.any(String) }]);

      const linked = await viaProvider('oidc', '?link=1', session);
      expect(linked.statusCode).toBe(200);
      expect(linked.body).toContain('data-type="OAUTH_SUCCESS"');
      expect(linked.body).toContain(IDENTITY_MESSAGES.linked);
      // A link keeps the session it was made in.
      expect(sessionOf(linked)).toBeUndefined();

      const added = await post(
        '/api/user/identities/email',
        { email: 'ada@mail.example', password: 'a long pass phrase' },
        session,
      );
      expect(added.statusCode).toBe(200);
      const confirm = linkIn(await smtp.next('ada@mail.example'), '/api/auth/email/confirm');
      expect((await get(confirm.pathname + confirm.search, '')).headers.location).toBe('/login?confirmed=1');

      mine = (await get('/api/user/identities', session)).json();
      expect(mine.map((i: { provider: string; name: string }) => `${i.provider}:${i.name}`)).toEqual([
        'github:ada-gh',
        'oidc:ada.l',
        'email:ada@mail.example',
      ]);
      // Each way in reaches the same one account.
      const bySso = await viaProvider('oidc');
      expect(bySso.statusCode).toBe(200);
      const byMail = await post(
        '/api/auth/login',
        { email: 'ada@mail.example', password: 'a long pass phrase' },
        '',
      );
      expect(byMail.statusCode).toBe(200);
      const users = await t.ctx.database.db.selectFrom('users').select('username').execute();
      expect(users).toEqual([{ username: 'ada-gh' }]);
    });

    it('refuses to link a way in that belongs to another account, or to link without a session', async () => {
      await viaProvider('oidc'); // the SSO identity makes its own account first
      fake.nextProfile = { id: '43', login: 'bob', email: 'bob@home.example' };
      const bob = `ctf_session=${sessionOf(await viaProvider('github'))!}`;
      const taken = await viaProvider('oidc', '?link=1', bob);
      expect(taken.statusCode).toBe(409);
      expect(taken.body).toContain(IDENTITY_MESSAGES.elsewhere);
      const anonymous = await get('/api/auth/oidc?link=1', '');
      expect(anonymous.body).toContain(IDENTITY_MESSAGES.signInFirst);
      expect((await get('/api/user/identities', bob)).json()).toHaveLength(1);
    });

    it('unlinks any way in but the last', async () => {
      const session = `ctf_session=${sessionOf(await viaProvider('github'))!}`;
      await viaProvider('oidc', '?link=1', session);
      const last = await post('/api/user/identities/unlink', { provider: 'github' }, session);
      expect(last.statusCode).toBe(200);
      const refused = await post('/api/user/identities/unlink', { provider: 'oidc' }, session);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(IDENTITY_MESSAGES.last);
      expect((await get('/api/user/identities', session)).json()).toEqual([
        { provider: 'oidc', name: 'ada.l', linkedAt: expect.any(String) },
      ]);
      // GitHub no longer reaches the account: it would make a new one.
      fake.nextProfile = { id: '42', login: 'ada-gh', email: 'ada@other.example' };
      await viaProvider('github');
      expect(await t.ctx.database.db.selectFrom('users').select('id').execute()).toHaveLength(2);
    });
  });
}
