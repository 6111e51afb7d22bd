import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';

/**
 * Staff roles (issue 31): POST /api/admin/set_role, the role in the user lists and in
 * GET /api/user/info, promote_admin and remove_admin as role changes, ADMINS, the last admin, and
 * a role taking effect on the holder's next request.
 */
for (const kind of testDatabaseKinds()) {
  describe(`staff roles on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;

    beforeEach(async () => {
      t = await buildTestApp(kind, { ADMINS: 'local:Founder' });
      admin = await t.login('boss', { admin: true });
    });
    afterEach(async () => {
      await t.close();
    });

    const roleOf = async (id: number) =>
      await t.ctx.database.db
        .selectFrom('users')
        .select(['role', 'is_admin'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    it('sets each role, answers it in the lists and in user info, and audits every change', async () => {
      const alice = await t.login('alice');
      expect((await alice.get('/api/user/info')).body).toMatchObject({ role: 'player', is_admin: false });

      for (const role of ['monitor', 'author', 'admin', 'player'] as const) {
        const res = await admin.post('/api/admin/set_role', { user_id: String(alice.user!.id), role });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toEqual({ acknowledge: true, message: expect.stringContaining(`'alice' is now a`) });
        expect(await roleOf(alice.user!.id)).toEqual({ role, is_admin: role === 'admin' ? 1 : 0 });
        // The holder's very next request knows it (the session cache dropped the user).
        expect((await alice.get('/api/user/info')).body).toMatchObject({ role, is_admin: role === 'admin' });
        const list = role === 'admin' ? '/api/admin/fetch_admins' : '/api/admin/get_users';
        const listed = (await admin.get(list)).body as { username: string; role: string }[];
        expect(listed.find((u) => u.username === 'alice')?.role).toBe(role);
      }

      const audit = await t.ctx.database.db
        .selectFrom('audit_log')
        .select(['action', 'target', 'details'])
        .where('action', '=', 'user.role')
        .orderBy('id')
        .execute();
      expect(audit.map((a) => JSON.parse(a.details))).toEqual([
        { before: { role: 'player', is_admin: false }, after: { role: 'monitor', is_admin: false } },
        { before: { role: 'monitor', is_admin: false }, after: { role: 'author', is_admin: false } },
        { before: { role: 'author', is_admin: false }, after: { role: 'admin', is_admin: true } },
        { before: { role: 'admin', is_admin: true }, after: { role: 'player', is_admin: false } },
      ]);
      expect(audit[0]!.target).toBe(`user 'alice' (#${alice.user!.id})`);
    });

    it('opens to a new role exactly its routes on the next request', async () => {
      const carol = await t.login('carol');
      expect((await carol.get('/api/admin/submissions')).status).toBe(403);
      expect((await carol.get('/api/admin/authenticated')).status).toBe(403);
      await admin.post('/api/admin/set_role', { user_id: String(carol.user!.id), role: 'author' });
      expect((await carol.get('/api/admin/authenticated')).status).toBe(200);
      expect((await carol.get('/api/admin/ctf/fetch_challenges')).status).toBe(200);
      expect((await carol.get('/api/admin/get_users')).status).toBe(403);
      await admin.post('/api/admin/set_role', { user_id: String(carol.user!.id), role: 'monitor' });
      expect((await carol.get('/api/admin/ctf/fetch_challenges')).status).toBe(403);
      expect((await carol.get('/api/admin/get_users')).status).toBe(200);
      expect(
        (await carol.post('/api/admin/set_role', { user_id: String(carol.user!.id), role: 'admin' })).status,
      ).toBe(403);
      expect(await roleOf(carol.user!.id)).toEqual({ role: 'monitor', is_admin: 0 });
    });

    it('never takes the admin role from the last admin, and refuses what does not apply', async () => {
      const self = String(admin.user!.id);
      for (const role of ['player', 'monitor', 'author'] as const) {
        const res = await admin.post('/api/admin/set_role', { user_id: self, role });
        expect(res.status).toBe(409);
        expect(res.body).toMatchObject({ acknowledge: false, message: 'The last admin cannot be removed.' });
      }
      expect(await roleOf(admin.user!.id)).toEqual({ role: 'admin', is_admin: 1 });
      const same = await admin.post('/api/admin/set_role', { user_id: self, role: 'admin' });
      expect(same.status).toBe(409);
      expect(same.body.message).toBe("'boss' is already an admin.");
      expect((await admin.post('/api/admin/set_role', { user_id: '999999', role: 'monitor' })).status).toBe(
        404,
      );
      for (const body of [{ user_id: self, role: 'owner' }, { user_id: self }, { role: 'admin' }, {}]) {
        const res = await admin.post('/api/admin/set_role', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.acknowledge).toBe(false);
      }
      // With a second admin, the first may step down.
      const deputy = await t.login('deputy', { admin: true });
      expect((await deputy.post('/api/admin/set_role', { user_id: self, role: 'monitor' })).status).toBe(200);
      expect(await roleOf(admin.user!.id)).toEqual({ role: 'monitor', is_admin: 0 });
      expect(
        (await deputy.post('/api/admin/set_role', { user_id: String(deputy.user!.id), role: 'player' }))
          .status,
      ).toBe(409);
    });

    it('promote_admin and remove_admin are role changes: admin, then player', async () => {
      const dave = await t.login('dave', { role: 'author' });
      expect((await admin.post('/api/admin/promote_admin', { username: 'dave' })).status).toBe(200);
      expect(await roleOf(dave.user!.id)).toEqual({ role: 'admin', is_admin: 1 });
      expect((await admin.post('/api/admin/remove_admin', { username: 'dave' })).status).toBe(200);
      expect(await roleOf(dave.user!.id)).toEqual({ role: 'player', is_admin: 0 });
      const notAdmin = await admin.post('/api/admin/remove_admin', { username: 'dave' });
      expect(notAdmin.status).toBe(400);
    });

    it('ADMINS makes its accounts admins at login, whatever role they were given', async () => {
      const founder = await t.login('Founder');
      expect(await roleOf(founder.user!.id)).toEqual({ role: 'admin', is_admin: 1 });
      const res = await admin.post('/api/admin/set_role', {
        user_id: String(founder.user!.id),
        role: 'monitor',
      });
      expect(res.status).toBe(200);
      expect(res.body.message).toContain('ADMINS');
      expect(await roleOf(founder.user!.id)).toEqual({ role: 'monitor', is_admin: 0 });
      await t.login('Founder');
      expect(await roleOf(founder.user!.id)).toEqual({ role: 'admin', is_admin: 1 });
    });
  });
}
