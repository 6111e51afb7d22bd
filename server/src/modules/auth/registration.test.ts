import { REGISTRATION_MESSAGES } from '@ctf/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { FakeOAuthProvider } from '../../../test/fake-oauth-provider.js';
import { OidcTestProvider } from '../../../test/oidc-test-provider.js';
import { sessionOf } from '../../../test/sessions.js';

/**
 * Who may register (the settings' `registration`): closed, limited to e-mail domains (any
 * provider's verified address counts), behind a code asked once; existing accounts still sign in;
 * a new sign-in whose verified address is an existing account's is never merged.
 */

const CALLBACK = `${TEST_ORIGIN}/api/auth/oidc/callback`;

for (const kind of testDatabaseKinds()) {
  describe(`registration rules on ${kind}`, () => {
    const fake = new FakeOAuthProvider();
    const op = new OidcTestProvider();
    let t: TestApp;
    beforeAll(async () => {
      await fake.start();
      await op.start(CALLBACK);
    });
    afterAll(async () => {
      await fake.stop();
      await op.stop();
    });
    beforeEach(async () => {
      t = await buildTestApp(kind, { ...fake.env(), ...op.env() });
      fake.denyWith = null;
    });
    afterEach(async () => {
      await t.close();
    });

    async function oauth(provider: 'github' | 'discord', cookies: string[] = []) {
      const start = await t.app.inject({ method: 'GET', url: `/api/auth/${provider}` });
      const state = start.cookies.find((c) => c.name === 'ctf_oauth_state')!.value;
      const toProvider = await fetch(start.headers.location as string, { redirect: 'manual' });
      const back = new URL(toProvider.headers.get('location')!);
      return t.app.inject({
        method: 'GET',
        url: back.pathname + back.search,
        headers: { cookie: [`ctf_oauth_state=${state}`, ...cookies].join('; ') },
      });
    }

    async function oidc() {
      const start = await t.app.inject({ method: 'GET', url: '/api/auth/oidc' });
      const state = start.cookies.find((c) => c.name === 'ctf_oauth_state')!.value;
      const back = await op.approve(start.headers.location as string, CALLBACK);
      return t.app.inject({
        method: 'GET',
        url: `/api/auth/oidc/callback${back.search}`,
        headers: { cookie: `ctf_oauth_state=${state}` },
      });
    }

    async function setRegistration(registration: object) {
      const admin = await t.login('organiser', { admin: true });
      const res = await admin.post('/api/admin/settings', { registration });
      expect(res.status, res.text).toBe(200);
    }

    const usernames = async () =>
      (await t.ctx.database.db.selectFrom('users').select('username').orderBy('id').execute()).map(
        (u) => u.username,
      );

    it('refuses a new account while registration is closed, and still signs an existing one in', async () => {
      fake.nextProfile = { id: '1', login: 'early', email: 'early@uni.example' };
      expect((await oauth('github')).statusCode).toBe(200);
      await setRegistration({ open: false, allowedEmailDomains: [], code: null });
      fake.nextProfile = { id: '2', login: 'late', email: 'late@uni.example' };
      const refused = await oauth('github');
      expect(refused.statusCode).toBe(403);
      expect(refused.body).toContain('data-type="OAUTH_ERROR"');
      expect(refused.body).toContain(`data-message="${REGISTRATION_MESSAGES.closed}"`);
      expect(sessionOf(refused)).toBeUndefined();
      fake.nextProfile = { id: '1', login: 'early', email: 'early@uni.example' };
      expect((await oauth('github')).statusCode).toBe(200);
      expect(await usernames()).toEqual(['early', 'organiser']);
    });

    it('limits new accounts to verified addresses at the allowed domains, from any provider', async () => {
      await setRegistration({ open: true, allowedEmailDomains: ['uni.example'], code: null });
      fake.nextProfile = { id: '3', login: 'outsider', email: 'outsider@gmail.example' };
      const refused = await oauth('discord');
      expect(refused.statusCode).toBe(403);
      expect(refused.body).toContain('Sign-ups are limited to e-mail addresses at uni.example');
      // A verified address that is not GitHub's primary one counts; an unverified one does not.
      fake.nextProfile = {
        id: '4',
        login: 'student',
        email: 'me@gmail.example',
        otherEmails: [{ email: 'fake@uni.example', verified: false }],
      };
      expect((await oauth('github')).statusCode).toBe(403);
      fake.nextProfile = {
        id: '4',
        login: 'student',
        email: 'me@gmail.example',
        otherEmails: [{ email: 'me@UNI.example', verified: true }],
      };
      expect((await oauth('github')).statusCode).toBe(200);
      // Single sign-on's address counts when the provider verified it.
      op.nextAccount = 'sso-1';
      op.accounts.set('sso-1', { email: 'x@uni.example', email_verified: false, preferred_username: 'x' });
      expect((await oidc()).statusCode).toBe(403);
      op.accounts.set('sso-1', { email: 'x@uni.example', email_verified: true, preferred_username: 'x' });
      expect((await oidc()).statusCode).toBe(200);
      expect(await usernames()).toEqual(['organiser', 'student', 'x']);
    });

    it('asks a new account for the code once; a wrong code is refused and guesses are limited', async () => {
      await setRegistration({ open: true, allowedEmailDomains: [], code: 'owls-2026' });
      fake.nextProfile = { id: '5', login: 'newbie', email: 'newbie@uni.example' };
      const noPass = await oauth('github');
      expect(noPass.statusCode).toBe(403);
      expect(noPass.body).toContain(`data-message="${REGISTRATION_MESSAGES.code}"`);
      const visitor = t.visitor();
      const wrong = await visitor.post('/api/auth/registration-code', { code: 'owls-2025' });
      expect(wrong.status).toBe(403);
      expect(wrong.body).toMatchObject({ message: REGISTRATION_MESSAGES.code });
      const right = await t.app.inject({
        method: 'POST',
        url: '/api/auth/registration-code',
        headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
        payload: { code: ' owls-2026 ' },
      });
      expect(right.statusCode).toBe(200);
      const pass = right.cookies.find((c) => c.name === 'ctf_registration')!;
      expect(pass.httpOnly).toBe(true);
      // A forged or altered pass does not count.
      expect((await oauth('github', ['ctf_registration=9999999999999.AAAA'])).statusCode).toBe(403);
      const made = await oauth('github', [`ctf_registration=${pass.value}`]);
      expect(made.statusCode).toBe(200);
      // Once made, the account signs in without it.
      expect((await oauth('github')).statusCode).toBe(200);
      // A changed code voids the passes given for the old one.
      await setRegistration({ open: true, allowedEmailDomains: [], code: 'new-code' });
      fake.nextProfile = { id: '6', login: 'later', email: 'later@uni.example' };
      expect((await oauth('github', [`ctf_registration=${pass.value}`])).statusCode).toBe(403);
      let last = 0;
      for (let i = 0; i < 11; i++) {
        last = (await visitor.post('/api/auth/registration-code', { code: `guess-${i}` })).status;
      }
      expect(last).toBe(429);
      expect(await usernames()).toEqual(['organiser', 'newbie']);
    });

    it('never merges a new way in whose verified address an account already has', async () => {
      fake.nextProfile = { id: '7', login: 'ada', email: 'ada@uni.example' };
      expect((await oauth('github')).statusCode).toBe(200);
      op.nextAccount = 'sso-ada';
      op.accounts.set('sso-ada', {
        email: 'Ada@uni.example',
        email_verified: true,
        preferred_username: 'ada',
      });
      const res = await oidc();
      expect(res.statusCode).toBe(409);
      expect(res.body).toContain(`data-message="${REGISTRATION_MESSAGES.emailInUse}"`);
      expect(sessionOf(res)).toBeUndefined();
      expect(await usernames()).toEqual(['ada']);
    });
  });
}
