import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { SmtpTestServer, linkIn } from '../../../test/smtp-test-server.js';

/** The Users tab's sign-in view: ways in and confirmation, a resent confirmation, blocked addresses. */

const post = (t: TestApp, url: string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
  });

for (const kind of testDatabaseKinds()) {
  describe(`admin view of ways in on ${kind}`, () => {
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

    it('shows ways in and confirmation, resends a confirmation (audited), and blocks an address', async () => {
      await post(t, '/api/auth/register', {
        username: 'lin',
        email: 'lin@uni.example',
        password: 'a long pass phrase',
      });
      await smtp.next('lin@uni.example');
      const admin = await t.login('boss', { admin: true });
      const lin = await t.ctx.database.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', 'lin')
        .executeTakeFirstOrThrow();
      const signIns = (await admin.get('/api/admin/sign-ins')).body;
      expect(signIns).toContainEqual({ user_id: String(lin.id), ways: ['email'], emailVerified: false });

      const resent = await admin.post('/api/admin/users/resend-confirmation', { user_id: String(lin.id) });
      expect(resent.status).toBe(200);
      const link = linkIn(await smtp.next('lin@uni.example'), '/api/auth/email/confirm');
      expect((await t.app.inject({ method: 'GET', url: link.pathname + link.search })).headers.location).toBe(
        '/login?confirmed=1',
      );
      const audit = await t.ctx.database.db.selectFrom('audit_log').select(['action', 'target']).execute();
      expect(audit).toContainEqual({ action: 'user.resend_confirmation', target: 'lin' });
      expect((await admin.get('/api/admin/sign-ins')).body).toContainEqual({
        user_id: String(lin.id),
        ways: ['email'],
        emailVerified: true,
      });

      expect(
        (await admin.post('/api/admin/blocked-emails', { email: 'LIN@uni.example', blocked: true })).status,
      ).toBe(200);
      expect((await admin.get('/api/admin/blocked-emails')).body).toEqual([
        { email: 'lin@uni.example', blockedAt: expect.any(String) },
      ]);
      const refused = await post(t, '/api/auth/login', {
        email: 'lin@uni.example',
        password: 'a long pass phrase',
      });
      expect(refused.statusCode).toBe(403);
      await admin.post('/api/admin/blocked-emails', { email: 'lin@uni.example', blocked: false });
      expect(
        (await post(t, '/api/auth/login', { email: 'lin@uni.example', password: 'a long pass phrase' }))
          .statusCode,
      ).toBe(200);
      const actions = (await t.ctx.database.db.selectFrom('audit_log').select('action').execute()).map(
        (a) => a.action,
      );
      expect(actions).toEqual(expect.arrayContaining(['email.block', 'email.unblock']));
    });

    it('lets a monitor see ways in but not the blocked addresses, and a player neither', async () => {
      const monitor = await t.login('watcher', { role: 'monitor' });
      expect((await monitor.get('/api/admin/sign-ins')).status).toBe(200);
      expect((await monitor.get('/api/admin/blocked-emails')).status).toBe(403);
      expect(
        (await monitor.post('/api/admin/blocked-emails', { email: 'x@uni.example', blocked: true })).status,
      ).toBe(403);
      const player = await t.login('player');
      expect((await player.get('/api/admin/sign-ins')).status).toBe(403);
    });
  });
}
