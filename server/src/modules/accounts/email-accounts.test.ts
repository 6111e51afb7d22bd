import { EMAIL_MESSAGES } from '@ctf/contract';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { SmtpTestServer, linkIn } from '../../../test/smtp-test-server.js';
import { authenticatedWith, sessionOf } from '../../../test/sessions.js';

/**
 * E-mail and password accounts against a real SMTP server started here: sign-up, the confirmation
 * link (24 h, once), sign-in (401, 403, 429), forgot and reset (1 h, once, every session ends),
 * Argon2id, and the same answer for a known and an unknown address.
 */

const post = (t: TestApp, url: string, payload: object, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
  });

const ADA = { username: 'ada', email: 'ada@uni.example', password: 'correct horse battery' };

for (const kind of testDatabaseKinds()) {
  describe(`e-mail accounts on ${kind}`, () => {
    const smtp = new SmtpTestServer();
    let t: TestApp;
    beforeAll(async () => {
      await smtp.start();
    });
    afterAll(async () => {
      await smtp.stop();
    });
    beforeEach(async () => {
      smtp.mails.length = 0;
      t = await buildTestApp(kind, smtp.env());
    });
    afterEach(async () => {
      await t.close();
    });

    /** Signs up and follows the confirmation link: the session cookie of a first sign-in. */
    async function signUpAndConfirm(who = ADA) {
      expect((await post(t, '/api/auth/register', who)).statusCode).toBe(200);
      const link = linkIn(await smtp.next(who.email), '/api/auth/email/confirm');
      const confirmed = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
      expect(confirmed.headers.location).toBe('/login?confirmed=1');
      const login = await post(t, '/api/auth/login', { email: who.email, password: who.password });
      expect(login.statusCode).toBe(200);
      return `ctf_session=${sessionOf(login)!}`;
    }

    it('signs up, mails a confirmation link naming the event, and signs in once it is followed', async () => {
      const res = await post(t, '/api/auth/register', ADA);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Check your e-mail to confirm your account.' });
      const early = await post(t, '/api/auth/login', { email: ADA.email, password: ADA.password });
      expect(early.statusCode).toBe(403);
      expect(early.json()).toMatchObject({ message: 'Confirm your e-mail first: we sent you a link.' });
      const mail = await smtp.next(ADA.email);
      expect(mail.from).toBe('ctf@club.example');
      expect(mail.subject).toContain('Capture The Flag');
      expect(mail.raw).toContain('Content-Type: text/plain');
      expect(mail.raw).toContain('Content-Type: text/html');
      const link = linkIn(mail, '/api/auth/email/confirm');
      expect(link.origin).toBe(TEST_ORIGIN);
      const first = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
      expect(first.statusCode).toBe(302);
      expect(first.headers.location).toBe('/login?confirmed=1');
      const again = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
      expect(again.headers.location).toBe('/login?confirmed=0');
      const login = await post(t, '/api/auth/login', { email: 'ADA@uni.example ', password: ADA.password });
      expect(login.statusCode).toBe(200);
      expect(await authenticatedWith(t, `ctf_session=${sessionOf(login)!}`)).toBe(200);
      const user = await t.ctx.database.db
        .selectFrom('users')
        .select(['username', 'email'])
        .executeTakeFirst();
      expect(user).toEqual({ username: 'ada', email: 'ada@uni.example' });
      const creds = await t.ctx.database.db
        .selectFrom('email_credentials')
        .selectAll()
        .executeTakeFirstOrThrow();
      expect(creds.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(creds.password_hash).not.toContain(ADA.password);
    });

    it('refuses a confirmation link after 24 hours', async () => {
      await post(t, '/api/auth/register', ADA);
      const link = linkIn(await smtp.next(ADA.email), '/api/auth/email/confirm');
      t.clock.advance(24 * 60 * 60 * 1000 + 1000);
      const res = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
      expect(res.headers.location).toBe('/login?confirmed=0');
      const bogus = await t.app.inject({ method: 'GET', url: '/api/auth/email/confirm?token=nope' });
      expect(bogus.headers.location).toBe('/login?confirmed=0');
    });

    it('names the broken password rule (400) and a taken username (409)', async () => {
      const short = await post(t, '/api/auth/register', { ...ADA, password: 'short' });
      expect(short.statusCode).toBe(400);
      expect(short.json().message).toBe('Your password must be at least 10 characters long.');
      const withName = await post(t, '/api/auth/register', { ...ADA, password: 'my-name-is-ADA-ok' });
      expect(withName.statusCode).toBe(400);
      expect(withName.json().message).toBe('Your password must not contain your username.');
      const withMail = await post(t, '/api/auth/register', {
        ...ADA,
        username: 'someone',
        password: 'x-ada@uni.example-x',
      });
      expect(withMail.json().message).toBe('Your password must not contain your e-mail address.');
      expect((await post(t, '/api/auth/register', ADA)).statusCode).toBe(200);
      const taken = await post(t, '/api/auth/register', {
        ...ADA,
        username: 'ADA',
        email: 'other@uni.example',
      });
      expect(taken.statusCode).toBe(409);
    });

    it('answers a wrong password and an unknown address alike (401), and limits attempts per account (429)', async () => {
      await signUpAndConfirm();
      const wrong = await post(t, '/api/auth/login', { email: ADA.email, password: 'not the password' });
      const unknown = await post(t, '/api/auth/login', {
        email: 'nobody@uni.example',
        password: 'not the password',
      });
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual(unknown.json());
      expect(wrong.json().message).toBe('Wrong e-mail or password.');
      let last = 0;
      for (let i = 0; i < 10; i++) {
        last = (await post(t, '/api/auth/login', { email: ADA.email, password: `guess number ${i}` }))
          .statusCode;
      }
      expect(last).toBe(429);
      // Even the right password waits out the window: the limit is the account's, not the guess's.
      expect(
        (await post(t, '/api/auth/login', { email: ADA.email, password: ADA.password })).statusCode,
      ).toBe(429);
    });

    it('resets a forgotten password with a link used once within an hour, ending every session', async () => {
      const session = await signUpAndConfirm();
      const forgot = await post(t, '/api/auth/password/forgot', { email: ADA.email });
      expect(forgot.statusCode).toBe(200);
      expect(forgot.json()).toEqual({ message: 'If an account uses that address, we sent it a link.' });
      const link = linkIn(await smtp.next(ADA.email), '/reset-password');
      const token = link.searchParams.get('token')!;
      const weak = await post(t, '/api/auth/password/reset', { token, password: 'short' });
      expect(weak.statusCode).toBe(400);
      const done = await post(t, '/api/auth/password/reset', { token, password: 'a brand new passphrase' });
      expect(done.statusCode).toBe(200);
      expect(await authenticatedWith(t, session)).toBe(401);
      const reused = await post(t, '/api/auth/password/reset', { token, password: 'yet another passphrase' });
      expect(reused.statusCode).toBe(400);
      expect(
        (await post(t, '/api/auth/login', { email: ADA.email, password: ADA.password })).statusCode,
      ).toBe(401);
      expect(
        (await post(t, '/api/auth/login', { email: ADA.email, password: 'a brand new passphrase' }))
          .statusCode,
      ).toBe(200);
      // A link older than an hour is refused.
      await post(t, '/api/auth/password/forgot', { email: ADA.email });
      const late = linkIn(await smtp.next(ADA.email), '/reset-password').searchParams.get('token')!;
      t.clock.advance(60 * 60 * 1000 + 1000);
      expect(
        (await post(t, '/api/auth/password/reset', { token: late, password: 'too late passphrase' }))
          .statusCode,
      ).toBe(400);
    });

    it('gives the same status, body and (within noise) time for a known and an unknown address', async () => {
      // Three known accounts, three rounds each: the reset form allows three requests an account
      // (EMAIL_LIMITS), and nine timings a side leave a busy machine's stalls out of the fastest.
      const known = [
        ADA,
        ...['grace', 'alan'].map((n) => ({ ...ADA, username: n, email: `${n}@uni.example` })),
      ];
      for (const who of known) await signUpAndConfirm(who);
      const timed = async (fn: () => Promise<{ statusCode: number; body: string }>) => {
        const started = performance.now();
        const res = await fn();
        return { status: res.statusCode, body: res.body, ms: performance.now() - started };
      };
      const cases: [string, (email: string, i: number) => Promise<{ statusCode: number; body: string }>][] = [
        [
          'register',
          (email, i) =>
            post(t, '/api/auth/register', {
              username: `new${i}${email.length}`,
              email,
              password: 'a long enough pass',
            }),
        ],
        ['login', (email) => post(t, '/api/auth/login', { email, password: 'a wrong password' })],
        ['forgot', (email) => post(t, '/api/auth/password/forgot', { email })],
      ];
      for (const [what, call] of cases) {
        const knownMs: number[] = [];
        const unknownMs: number[] = [];
        for (let i = 0; i < 3 * known.length; i++) {
          // Each round alternates, so drift in the machine's load hits both sides.
          const a = await timed(() => call(known[i % known.length]!.email, i));
          const b = await timed(() => call(`nobody${i}@uni.example`, i));
          expect(a.status, what).toBe(b.status);
          expect(a.body, what).toBe(b.body);
          knownMs.push(a.ms);
          unknownMs.push(b.ms);
        }
        // The fastest of each side is its work with the least of the machine's other load in it (a
        // busy machine only ever adds time). Argon2id dominates both; a missing hash check would
        // make one side several times faster.
        const [k, u] = [Math.min(...knownMs), Math.min(...unknownMs)];
        expect(
          Math.min(k, u) / Math.max(k, u),
          `${what}: ${k.toFixed(1)} ms against ${u.toFixed(1)} ms`,
        ).toBeGreaterThan(1 / 3);
      }
    });

    it('is off without SMTP_URL', async () => {
      await t.close();
      t = await buildTestApp(kind);
      const res = await post(t, '/api/auth/register', ADA);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(EMAIL_MESSAGES.notEnabled);
      const info = (await t.app.inject({ method: 'GET', url: '/api/info/site' })).json();
      expect(info.loginMethods).not.toContain('email');
    });
  });
}
