import { MESSAGES } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, makeTeam, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import type { Topic } from '../../lib/invalidation.js';

for (const kind of testDatabaseKinds()) {
  describe(`admin calls on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;
    let published: Topic[];

    beforeEach(async () => {
      // Outside the default event window (Oct 2025): the test clock starts in January 2026.
      t = await buildTestApp(kind, { ADMINS: 'local:Founder' });
      admin = await t.login('boss', { admin: true });
      published = [];
      t.ctx.bus.subscribe((topic) => published.push(topic));
    });
    afterEach(async () => {
      await t.close();
    });

    describe('users and admins', () => {
      it('lists participants only, in the User shape of docs/product.md §3 with team and completions', async () => {
        const alice = await t.login('alice');
        const bob = await t.login('bob');
        await t.login('second-admin', { admin: true });
        const teamId = await makeTeam(t, 'Red', [alice.user!.id, bob.user!.id]);
        const challenge = await addChallenge(t, { name: 'Warmup' });
        await openSite(t);
        expect(
          (await alice.post('/api/ctf/submit-flag', { flag: challenge.flag, challenge_id: challenge.id }))
            .body,
        ).toEqual({ message: MESSAGES.correctFlag });
        await alice.post('/api/ctf/rate-challenge', { challenge_id: challenge.id, rating: 4 });

        const res = await admin.get('/api/admin/get_users');
        expect(res.status).toBe(200);
        expect(res.body.map((u: { username: string }) => u.username)).toEqual(['alice', 'bob']);
        const [a, b] = res.body;
        expect(a).toMatchObject({
          _id: String(alice.user!.id),
          team: 'Red',
          team_id: String(teamId),
          is_leader: true,
          is_admin: false,
          user_rates: [String(challenge.id)],
        });
        expect(a.completions).toEqual([
          { id: String(challenge.id), name: 'Warmup', time: expect.any(String) },
        ]);
        expect(b).toMatchObject({ team: 'Red', is_leader: false, completions: [], user_rates: [] });
        // Same shape as the user's own GET /api/user/info.
        expect(a).toEqual({
          ...(await alice.get('/api/user/info')).body,
          hidden: false,
          banned: false,
          moderation_reason: null,
          competing: false,
        });
      });

      it('lists the admins', async () => {
        await t.login('alice');
        await t.login('deputy', { admin: true });
        const res = await admin.get('/api/admin/fetch_admins');
        expect(res.status).toBe(200);
        expect(res.body.map((u: { username: string }) => u.username)).toEqual(['boss', 'deputy']);
        expect(
          res.body.every((u: { is_admin: boolean; team: string }) => u.is_admin && u.team === 'None'),
        ).toBe(true);
      });

      it('takes the admin role away, effective at the next request', async () => {
        const deputy = await t.login('deputy', { admin: true });
        expect((await deputy.get('/api/admin/get_users')).status).toBe(200);
        const res = await admin.post('/api/admin/remove_admin', { username: 'Deputy' });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ acknowledge: true, message: "'deputy' is no longer an admin." });
        expect((await deputy.get('/api/admin/get_users')).status).toBe(403);
        expect((await deputy.get('/api/admin/authenticated')).status).toBe(403);
        expect(
          (await admin.get('/api/admin/get_users')).body.map((u: { username: string }) => u.username),
        ).toContain('deputy');
        expect(published).toContain('users');
      });

      it('makes a user an admin, effective at the next request, and recorded', async () => {
        const alice = await t.login('alice');
        expect((await alice.get('/api/admin/get_users')).status).toBe(403);
        const res = await admin.post('/api/admin/promote_admin', { username: 'Alice' });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ acknowledge: true, message: "'alice' is now an admin." });
        expect((await alice.get('/api/admin/get_users')).status).toBe(200);
        expect(published).toContain('users');
        const again = await admin.post('/api/admin/promote_admin', { username: 'alice' });
        expect(again.status).toBe(409);
        expect(again.body.acknowledge).toBe(false);
        expect((await admin.post('/api/admin/promote_admin', { username: 'ghost' })).status).toBe(404);
        const bad = await admin.post('/api/admin/promote_admin', {});
        expect(bad.status).toBe(400);
        expect(bad.body.message).toContain('username');
        const audit = await t.ctx.database.db.selectFrom('audit_log').select(['action', 'target']).execute();
        expect(audit).toContainEqual({
          action: 'admin.promote',
          target: `user 'alice' (#${alice.user!.id})`,
        });
      });

      it('says when ADMINS will give the role back at the next login', async () => {
        await t.login('Founder');
        const res = await admin.post('/api/admin/remove_admin', { username: 'founder' });
        expect(res.status).toBe(200);
        expect(res.body.message).toContain('next login');
        expect(res.body.message).toContain('ADMINS');
      });

      it('never removes the last admin', async () => {
        const res = await admin.post('/api/admin/remove_admin', { username: 'boss' });
        expect(res.status).toBe(409);
        expect(res.body).toMatchObject({ acknowledge: false, message: 'The last admin cannot be removed.' });
        expect((await admin.get('/api/admin/get_users')).status).toBe(200);
      });

      it('keeps one admin when two demote each other at once', async () => {
        const deputy = await t.login('deputy', { admin: true });
        const [a, b] = await Promise.all([
          admin.post('/api/admin/remove_admin', { username: 'deputy' }),
          deputy.post('/api/admin/remove_admin', { username: 'boss' }),
        ]);
        expect([a.status, b.status].sort()).toEqual([200, 409]);
        expect(
          (await t.ctx.database.db.selectFrom('users').select('id').where('is_admin', '=', 1).execute())
            .length,
        ).toBe(1);
      });

      it('answers 404 for an unknown user, 400 for a non-admin or a bad body', async () => {
        await t.login('alice');
        expect((await admin.post('/api/admin/remove_admin', { username: 'ghost' })).status).toBe(404);
        const notAdmin = await admin.post('/api/admin/remove_admin', { username: 'alice' });
        expect(notAdmin.status).toBe(400);
        expect(notAdmin.body.acknowledge).toBe(false);
        expect((await admin.post('/api/admin/remove_admin', {})).status).toBe(400);
        expect((await admin.post('/api/admin/remove_admin', { username: '' })).status).toBe(400);
      });

      it('removes a user: their session, solves and points go, their team carries on', async () => {
        const alice = await t.login('alice');
        const bob = await t.login('bob');
        const teamId = await makeTeam(t, 'Blue', [alice.user!.id, bob.user!.id]);
        const solo = await t.login('solo');
        const c1 = await addChallenge(t, { difficulty: 'Hard' });
        await openSite(t);
        await alice.post('/api/ctf/submit-flag', { flag: c1.flag, challenge_id: c1.id });
        await solo.post('/api/ctf/submit-flag', { flag: c1.flag, challenge_id: c1.id });
        const before = (await t.visitor().get('/api/info/leaderboard')).body;
        expect(before).toEqual(
          expect.arrayContaining([
            { name: 'Blue', points: 300 },
            { name: 'solo', points: 300 },
          ]),
        );

        published.length = 0;
        const res = await admin.post('/api/admin/remove_user', { user_id: String(alice.user!.id) });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ acknowledge: true, message: "User 'alice' was removed." });
        expect(published).toEqual(expect.arrayContaining(['users', 'teams', 'solves', 'ratings']));
        expect((await alice.get('/api/authenticated')).status).toBe(401);
        expect((await alice.get('/api/user/info')).body).toBeNull();
        const after = (await t.visitor().get('/api/info/leaderboard')).body;
        expect(after).toEqual([{ name: 'solo', points: 300 }]);
        const team = (await admin.get('/api/admin/get_teams')).body.find(
          (x: { _id: string }) => x._id === String(teamId),
        );
        expect(team).toMatchObject({ team_leader: 'bob', members: ['bob'], memberCount: 1 });
        expect(
          (await admin.get('/api/admin/get_users')).body.map((u: { username: string }) => u.username),
        ).toEqual(['bob', 'solo']);
      });

      it('deletes the team a removed leader was alone in', async () => {
        const alone = await t.login('alone');
        await makeTeam(t, 'Solo Team', [alone.user!.id]);
        expect((await admin.post('/api/admin/remove_user', { user_id: alone.user!.id })).status).toBe(200);
        expect((await admin.get('/api/admin/get_teams')).body).toEqual([]);
      });

      it('refuses to remove yourself, unknown users and bad ids', async () => {
        const self = await admin.post('/api/admin/remove_user', { user_id: String(admin.user!.id) });
        expect(self.status).toBe(400);
        expect(self.body).toMatchObject({ acknowledge: false, message: 'You cannot remove yourself.' });
        expect((await admin.post('/api/admin/remove_user', { user_id: '999999' })).status).toBe(404);
        for (const bad of [{}, { user_id: 'abc' }, { user_id: -1 }, { user_id: '1; drop table users' }]) {
          const res = await admin.post('/api/admin/remove_user', bad);
          expect(res.status).toBe(400);
          expect(res.body.acknowledge).toBe(false);
        }
      });
    });

    describe('teams', () => {
      it('lists teams and removes one, leaving its members teamless', async () => {
        const alice = await t.login('alice');
        const teamId = await makeTeam(t, 'Green', [alice.user!.id]);
        const list = await admin.get('/api/admin/get_teams');
        expect(list.status).toBe(200);
        expect(list.body).toEqual([
          expect.objectContaining({
            _id: String(teamId),
            name: 'Green',
            team_leader: 'alice',
            members: ['alice'],
          }),
        ]);
        const res = await admin.post('/api/admin/remove_team', { team_id: String(teamId) });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ acknowledge: true, message: 'Team removed successfully.' });
        expect((await alice.get('/api/user/info')).body).toMatchObject({ team: 'None', team_id: null });
        expect((await admin.get('/api/admin/get_teams')).body).toEqual([]);
      });

      it('answers 404 for an unknown team and 400 for a bad id', async () => {
        const missing = await admin.post('/api/admin/remove_team', { team_id: '4242' });
        expect(missing.status).toBe(404);
        expect(missing.body.acknowledge).toBe(false);
        expect((await admin.post('/api/admin/remove_team', { team_id: 'x' })).status).toBe(400);
      });
    });
  });
}
