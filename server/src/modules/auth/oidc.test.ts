import { generateKeyPairSync } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { OidcTestProvider } from '../../../test/oidc-test-provider.js';
import { authenticatedWith, sessionOf } from '../../../test/sessions.js';
import { loadConfig } from '../../config.js';

/**
 * Single sign-on through a real OpenID Provider started here: the whole code flow with PKCE,
 * state and nonce, and an ID token refused when it is forged (another key), expired, for another
 * audience or with another nonce.
 */

const CALLBACK = `${TEST_ORIGIN}/api/auth/oidc/callback`;

for (const kind of testDatabaseKinds()) {
  describe(`OpenID Connect sign-in on ${kind}`, () => {
    const op = new OidcTestProvider();
    let t: TestApp;
    beforeAll(async () => {
      await op.start(CALLBACK);
    });
    afterAll(async () => {
      await op.stop();
    });
    beforeEach(async () => {
      t = await buildTestApp(kind, op.env());
      op.tamper = null;
      op.nextAccount = 'student-1';
      op.accounts.set('student-1', {
        email: 'ada@uni.example',
        email_verified: true,
        name: 'Ada Lovelace',
        preferred_username: 'ada',
      });
    });
    afterEach(async () => {
      await t.close();
    });

    /** GET /api/auth/oidc, then the provider's pages, then our callback: its response. */
    async function signIn() {
      const start = await t.app.inject({ method: 'GET', url: '/api/auth/oidc' });
      expect(start.statusCode).toBe(302);
      const state = start.cookies.find((c) => c.name === 'ctf_oauth_state')!.value;
      const back = await op.approve(start.headers.location as string, CALLBACK);
      return t.app.inject({
        method: 'GET',
        url: `/api/auth/oidc/callback${back.search}`,
        headers: { cookie: `ctf_oauth_state=${state}` },
      });
    }

    const users = () =>
      t.ctx.database.db.selectFrom('users').select(['username', 'email']).orderBy('id').execute();

    it('sends the browser to the provider with PKCE, state and nonce', async () => {
      const start = await t.app.inject({ method: 'GET', url: '/api/auth/oidc' });
      expect(start.statusCode).toBe(302);
      const to = new URL(start.headers.location as string);
      expect(to.origin).toBe(op.url);
      expect(to.searchParams.get('response_type')).toBe('code');
      expect(to.searchParams.get('code_challenge_method')).toBe('S256');
      expect(to.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
      expect(to.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
      expect(to.searchParams.get('redirect_uri')).toBe(CALLBACK);
      expect(to.searchParams.get('scope')).toBe('openid email profile');
      expect(to.searchParams.get('state')).toBe(
        start.cookies.find((c) => c.name === 'ctf_oauth_state')!.value,
      );
    });

    it('signs a student in, makes the account from the claims, and finds it again by its subject', async () => {
      const res = await signIn();
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('data-type="OAUTH_SUCCESS"');
      const cookie = sessionOf(res)!;
      expect(await authenticatedWith(t, `ctf_session=${cookie}`)).toBe(200);
      expect(await users()).toEqual([{ username: 'ada', email: 'ada@uni.example' }]);
      const identity = await t.ctx.database.db.selectFrom('identities').selectAll().executeTakeFirstOrThrow();
      expect(identity).toMatchObject({ provider: 'oidc', provider_user_id: 'student-1' });
      // The same subject with a new name and address: the same account, refreshed address.
      op.accounts.set('student-1', {
        email: 'ada@new.example',
        email_verified: true,
        preferred_username: 'ada2',
      });
      expect((await signIn()).statusCode).toBe(200);
      expect(await users()).toEqual([{ username: 'ada', email: 'ada@new.example' }]);
    });

    it('keeps an address the provider did not verify out of the account', async () => {
      op.accounts.set('student-1', {
        email: 'claimed@uni.example',
        email_verified: false,
        preferred_username: 'eve',
      });
      expect((await signIn()).statusCode).toBe(200);
      expect(await users()).toEqual([{ username: 'eve', email: '' }]);
    });

    const refusals: [
      string,
      (c: Record<string, unknown>) => { claims: Record<string, unknown>; key?: never },
    ][] = [
      [
        'expired',
        (c) => ({
          claims: {
            ...c,
            iat: Math.floor(Date.now() / 1000) - 7200,
            exp: Math.floor(Date.now() / 1000) - 3600,
          },
        }),
      ],
      ['for another audience', (c) => ({ claims: { ...c, aud: 'some-other-client' } })],
      ['with another nonce', (c) => ({ claims: { ...c, nonce: 'a-nonce-this-login-never-sent' } })],
      ['from another issuer', (c) => ({ claims: { ...c, iss: 'https://evil.example' } })],
    ];
    for (const [what, tamper] of refusals) {
      it(`refuses an ID token ${what}`, async () => {
        op.tamper = tamper;
        const res = await signIn();
        expect(res.statusCode).toBe(400);
        expect(res.body).toContain('data-type="OAUTH_ERROR"');
        expect(res.body).toContain('University login did not accept the login');
        expect(sessionOf(res)).toBeUndefined();
        expect(await users()).toEqual([]);
      });
    }

    it("refuses an ID token signed by a key outside the provider's JWKS (same key id, right claims)", async () => {
      const forger = generateKeyPairSync('rsa', { modulusLength: 2048 });
      op.tamper = (c) => ({ claims: { ...c, sub: 'the-admin' }, key: forger.privateKey });
      const res = await signIn();
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('data-type="OAUTH_ERROR"');
      expect(sessionOf(res)).toBeUndefined();
      expect(await users()).toEqual([]);
    });

    it("refuses a replayed callback and a callback without the browser's state cookie", async () => {
      const start = await t.app.inject({ method: 'GET', url: '/api/auth/oidc' });
      const state = start.cookies.find((c) => c.name === 'ctf_oauth_state')!.value;
      const back = await op.approve(start.headers.location as string, CALLBACK);
      const noCookie = await t.app.inject({ method: 'GET', url: `/api/auth/oidc/callback${back.search}` });
      expect(noCookie.statusCode).toBe(400);
      const first = await t.app.inject({
        method: 'GET',
        url: `/api/auth/oidc/callback${back.search}`,
        headers: { cookie: `ctf_oauth_state=${state}` },
      });
      expect(first.statusCode).toBe(200);
      const replay = await t.app.inject({
        method: 'GET',
        url: `/api/auth/oidc/callback${back.search}`,
        headers: { cookie: `ctf_oauth_state=${state}` },
      });
      expect(replay.statusCode).toBe(400);
      expect(sessionOf(replay)).toBeUndefined();
    });

    it('makes ADMINS=oidc:NAME an admin, and lists the way in on the site info', async () => {
      await t.close();
      t = await buildTestApp(kind, { ...op.env(), ADMINS: 'oidc:ada' });
      expect((await signIn()).statusCode).toBe(200);
      const row = await t.ctx.database.db.selectFrom('users').select('role').executeTakeFirstOrThrow();
      expect(row.role).toBe('admin');
      const info = (await t.app.inject({ method: 'GET', url: '/api/info/site' })).json();
      expect(info.loginMethods).toEqual(['oidc']);
      expect(info.oidcLabel).toBe('University login');
      expect(info.login.local).toBe(false);
    });
  });
}

describe('OpenID Connect configuration', () => {
  const base = { OIDC_CLIENT_ID: 'id', OIDC_CLIENT_SECRET: 'secret', SESSION_SECRET: 'x'.repeat(32) };
  it('accepts an http:// issuer only on a loopback host', () => {
    expect(loadConfig({ ...base, OIDC_ISSUER: 'http://127.0.0.1:9999' }).oidc?.insecureLoopback).toBe(true);
    expect(loadConfig({ ...base, OIDC_ISSUER: 'https://login.uni.example' }).oidc?.insecureLoopback).toBe(
      false,
    );
    expect(() => loadConfig({ ...base, OIDC_ISSUER: 'http://login.uni.example' })).toThrow(
      'OIDC_ISSUER must be an https:// URL',
    );
  });
  it('needs the issuer, the client id and the secret together, and openid among the scopes', () => {
    expect(() =>
      loadConfig({ SESSION_SECRET: 'x'.repeat(32), OIDC_ISSUER: 'https://login.uni.example' }),
    ).toThrow('must be set together');
    expect(() =>
      loadConfig({ ...base, OIDC_ISSUER: 'https://login.uni.example', OIDC_SCOPES: 'email profile' }),
    ).toThrow("OIDC_SCOPES must include 'openid'");
    const c = loadConfig({ ...base, OIDC_ISSUER: 'https://login.uni.example' }).oidc!;
    expect(c.label).toBe('Single sign-on');
    expect(c.scopes).toEqual(['openid', 'email', 'profile']);
  });
});
