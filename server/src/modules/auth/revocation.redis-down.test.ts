import { describe, expect, it, onTestFinished } from 'vitest';
import { TestClock, TestClient, loginUser } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { PrivateRedis } from '../../../test/private-redis.js';
import { twoProcesses, type Process } from '../../../test/two-processes.js';

/**
 * Revocation never fails open: two processes share a private Redis that the test stops. While it
 * is down neither process hears the other, so neither trusts what it kept about sessions, roles,
 * bans and tokens: a logout, a ban, a demotion and a token revocation made on one process hold on
 * the other's very next request, and a demoted admin cannot make itself admin again there. When
 * Redis is back, the caches start empty and the same refusals stand.
 */
for (const kind of testDatabaseKinds()) {
  describe(`revocation while Redis is down (${kind})`, () => {
    const clock = new TestClock(Date.parse('2031-01-01T00:00:00Z'));

    async function until(check: () => boolean, what: string): Promise<void> {
      await expect.poll(check, { timeout: 10_000, message: what }).toBe(true);
    }

    it('logout, ban, demotion and token revocation on one process hold at once on the other', async () => {
      const redis = await PrivateRedis.start();
      onTestFinished(() => redis.stop());
      const { a, b } = await twoProcesses(kind, clock, { REDIS_URL: redis.url });
      const hearing = () => a.ctx.bus.hearsOthers() && b.ctx.bus.hearsOthers();
      await until(hearing, 'both processes hear each other through Redis');

      // Everyone signs in on a; b serves them too (a client of b with the same cookie).
      const on = (p: Process, c: TestClient) => new TestClient(p.app, c.cookie, c.user);
      const root = await loginUser(a.ctx, a.app, 'root', { admin: true });
      const deputy = await loginUser(a.ctx, a.app, 'deputy', { admin: true });
      const bob = await loginUser(a.ctx, a.app, 'bob');
      const carol = await loginUser(a.ctx, a.app, 'carol');
      const ann = await loginUser(a.ctx, a.app, 'ann');
      const made = await ann.post('/api/user/tokens', { name: 'bot' });
      const token = made.body.token as string;
      const viaToken = (p: Process) =>
        p.app.inject({
          method: 'GET',
          url: '/api/authenticated',
          headers: { authorization: `Bearer ${token}` },
        });

      // Whatever a published while signing them in has reached b (Redis keeps one publisher's
      // order: a marker heard means everything before it was), so what b keeps next stays kept.
      let marker = false;
      const stop = b.ctx.bus.subscribe((topic) => {
        if (topic === 'announcements') marker = true;
      });
      a.ctx.bus.publish('announcements');
      await until(() => marker, 'b heard what a published');
      stop();
      // b keeps every one of them (each asked twice: the second answer comes from its cache).
      for (let i = 0; i < 2; i++) {
        expect((await on(b, bob).get('/api/authenticated')).status).toBe(200);
        expect((await on(b, carol).get('/api/authenticated')).status).toBe(200);
        expect((await on(b, deputy).get('/api/admin/get_users')).status).toBe(200);
        expect((await viaToken(b)).statusCode).toBe(200);
      }

      await redis.stop();
      await until(() => !a.ctx.bus.hearsOthers() && !b.ctx.bus.hearsOthers(), 'both know Redis is gone');

      // On a: bob logs out, carol is banned, deputy demoted, ann's token revoked.
      expect((await bob.get('/api/auth/logout')).status).toBe(200);
      const ban = await root.post('/api/admin/moderate', {
        target: 'user',
        name: 'carol',
        action: 'ban',
        reason: 'test',
      });
      expect(ban.status, ban.text).toBe(200);
      const demote = await root.post('/api/admin/set_role', {
        user_id: String(deputy.user!.id),
        role: 'player',
      });
      expect(demote.status, demote.text).toBe(200);
      expect((await ann.post('/api/user/tokens/delete', { token_id: made.body._id })).status).toBe(200);

      // On b, at once (no waiting): every one of them is refused.
      expect((await on(b, bob).get('/api/authenticated')).status).toBe(401);
      expect((await on(b, carol).get('/api/authenticated')).status).toBe(401);
      expect((await on(b, deputy).get('/api/admin/get_users')).status).toBe(403);
      expect((await viaToken(b)).statusCode).toBe(401);
      // The demoted admin tries to make itself admin again through b, and demote root.
      const back = await on(b, deputy).post('/api/admin/set_role', {
        user_id: String(deputy.user!.id),
        role: 'admin',
      });
      expect(back.status).toBe(403);
      const coup = await on(b, deputy).post('/api/admin/set_role', {
        user_id: String(root.user!.id),
        role: 'player',
      });
      expect(coup.status).toBe(403);
      const roles = await a.ctx.database.db
        .selectFrom('users')
        .select(['username', 'role'])
        .where('username', 'in', ['root', 'deputy'])
        .orderBy('username')
        .execute();
      expect(roles).toEqual([
        { username: 'deputy', role: 'player' },
        { username: 'root', role: 'admin' },
      ]);
      // Those still allowed still get in (read from the database), on both.
      expect((await on(b, root).get('/api/admin/get_users')).status).toBe(200);
      expect((await on(b, ann).get('/api/authenticated')).status).toBe(200);

      // Redis comes back: both hear again, and nothing revoked comes back with it.
      await redis.start();
      await until(hearing, 'both processes hear each other again');
      for (const p of [a, b]) {
        expect((await on(p, bob).get('/api/authenticated')).status).toBe(401);
        expect((await on(p, carol).get('/api/authenticated')).status).toBe(401);
        expect((await on(p, deputy).get('/api/admin/get_users')).status).toBe(403);
        expect((await viaToken(p)).statusCode).toBe(401);
        expect((await on(p, root).get('/api/admin/get_users')).status).toBe(200);
      }
    });
  });
}
