import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, loginUser, type TestApp } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { findOrCreateUser } from '../users/users.service.js';
import { SESSION_TTL_MS } from './sessions.service.js';

const AUTH = '/api/authenticated';

// Sessions are kept in memory between requests; these are the ways a kept session must still end
// or change at the very next request.
for (const kind of testDatabaseKinds()) {
  describe(`kept sessions on ${kind}`, () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await buildTestApp(kind);
    });
    afterEach(async () => {
      await t.close();
    });

    it('end at their expiry time even while kept', async () => {
      const ann = await t.login('ann');
      expect((await ann.get(AUTH)).status).toBe(200);
      t.clock.advance(SESSION_TTL_MS - 1000);
      expect((await ann.get(AUTH)).status).toBe(200);
      t.clock.advance(2000);
      expect((await ann.get(AUTH)).status).toBe(401);
    });

    it('are deleted once expired by a later sign-in, at most once a minute', async () => {
      const holders = async () =>
        (
          await t.ctx.database.db
            .selectFrom('sessions')
            .innerJoin('users', 'users.id', 'sessions.user_id')
            .select('users.username')
            .orderBy('users.username')
            .execute()
        ).map((r) => r.username);
      await t.login('ann');
      t.clock.advance(SESSION_TTL_MS - 10_000);
      await t.login('bob');
      t.clock.advance(20_000);
      // ann's session has expired (and is refused), but the last sweep was 20 s ago.
      await t.login('cat');
      expect(await holders()).toEqual(['ann', 'bob', 'cat']);
      t.clock.advance(60_000);
      await t.login('dan');
      expect(await holders()).toEqual(['bob', 'cat', 'dan']);
    });

    it('end at logout on every device of that cookie, and other sessions live on', async () => {
      const ann = await t.login('ann');
      const annPhone = await t.login('ann');
      expect((await ann.get(AUTH)).status).toBe(200);
      expect((await annPhone.get(AUTH)).status).toBe(200);
      await ann.get('/api/auth/logout');
      expect((await ann.get(AUTH)).status).toBe(401);
      expect((await annPhone.get(AUTH)).status).toBe(200);
    });

    it('follow a role change, a team change and a profile refresh made elsewhere', async () => {
      const ann = await t.login('ann', { admin: true });
      expect((await ann.get('/api/admin/authenticated')).status).toBe(200);
      const root = await t.login('root', { admin: true });
      expect((await root.post('/api/admin/remove_admin', { username: 'ann' })).status).toBe(200);
      expect((await ann.get('/api/admin/authenticated')).status).toBe(403);

      const bob = await t.login('bob');
      expect((await bob.get('/api/user/info')).body.team).toBe('None');
      expect((await bob.post('/api/team/create', { team_name: 'Blue' })).status).toBe(200);
      expect((await bob.get('/api/user/info')).body.team).toBe('Blue');

      // A later login with a new avatar shows on the session opened before it.
      await findOrCreateUser(t.ctx, {
        provider: 'local',
        providerUserId: 'bob',
        handle: 'bob',
        avatarUrl: 'https://avatars.example.org/bob-2.png',
        email: 'bob@example.org',
      });
      expect((await bob.get('/api/user/info')).body.avatarUrl).toBe('https://avatars.example.org/bob-2.png');
    });

    it('end at the next request when the user is removed', async () => {
      const ann = await t.login('ann');
      expect((await ann.get(AUTH)).status).toBe(200);
      const root = await t.login('root', { admin: true });
      expect((await root.post('/api/admin/remove_user', { user_id: String(ann.user!.id) })).status).toBe(200);
      expect((await ann.get(AUTH)).status).toBe(401);
      expect((await ann.get('/api/user/info')).body).toBeNull();
    });

    it('do not keep made-up tokens', async () => {
      const before = (await loginUser(t.ctx, t.app, 'carol')).cookie!;
      const fake = before.replace(/=.*/, '=' + 'A'.repeat(43));
      for (let i = 0; i < 3; i++) {
        expect((await t.app.inject({ method: 'GET', url: AUTH, headers: { cookie: fake } })).statusCode).toBe(
          401,
        );
      }
      expect((await t.app.inject({ method: 'GET', url: AUTH, headers: { cookie: before } })).statusCode).toBe(
        200,
      );
    });
  });
}
