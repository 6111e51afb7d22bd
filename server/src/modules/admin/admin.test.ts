import { MESSAGES } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, addFileRow, makeTeam, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { ALL_TOPICS, type Topic } from '../../lib/invalidation.js';

const FORM = {
  name: 'Web 101',
  description: '<p>Look <b>here</b></p><script>alert(1)</script>',
  category: 'Web Exploitation',
  difficulty: 'Medium',
  written_by: 'club',
  flag: 'flag{web}',
  points: 9999,
  files: [] as string[],
};

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
      it('lists participants only, in the SPEC User shape with team and completions', async () => {
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

    describe('challenges', () => {
      it('creates a challenge: points from difficulty, sanitised HTML, files attached, active', async () => {
        await addFileRow(t, 'web.zip');
        const res = await admin.post('/api/admin/ctf/create_challenge', { ...FORM, files: ['web.zip'] });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ acknowledge: true, message: "Challenge 'Web 101' created successfully." });
        const [c] = (await admin.get('/api/admin/ctf/fetch_challenges')).body;
        expect(c).toMatchObject({
          name: 'Web 101',
          category: 'Web Exploitation',
          difficulty: 'Medium',
          points: 200,
          flag: 'flag{web}',
          is_active: true,
          hlinks: ['web.zip'],
          user_completions: 0,
        });
        expect(c.description).not.toContain('<script');
        expect(published).toContain('challenges');
      });

      it('refuses to create during the event window, and allows it again after', async () => {
        await t.close();
        t = await buildTestApp(kind, {
          EVENT_START: '2026-03-01T00:00:00Z',
          EVENT_END: '2026-03-08T00:00:00Z',
        });
        t.clock.set('2026-03-03T12:00:00Z');
        admin = await t.login('boss', { admin: true });
        const during = await admin.post('/api/admin/ctf/create_challenge', FORM);
        expect(during.status).toBe(403);
        expect(during.body).toMatchObject({ acknowledge: false, message: MESSAGES.createDisabled });
        expect((await admin.get('/api/admin/ctf/fetch_challenges')).body).toEqual([]);
        t.clock.set('2026-03-01T00:00:00Z');
        expect((await admin.post('/api/admin/ctf/create_challenge', FORM)).status).toBe(403);
        t.clock.set('2026-03-08T00:00:00Z');
        expect((await admin.post('/api/admin/ctf/create_challenge', FORM)).status).toBe(200);
        t.clock.set('2026-02-28T23:59:59Z');
        expect(
          (await admin.post('/api/admin/ctf/create_challenge', { ...FORM, name: 'Before' })).status,
        ).toBe(200);
      });

      it('refuses a bad challenge form with 400 and a duplicate name with 409', async () => {
        const missing = await admin.post('/api/admin/ctf/create_challenge', { ...FORM, flag: '  ' });
        expect(missing.status).toBe(400);
        expect(missing.body.acknowledge).toBe(false);
        expect(
          (await admin.post('/api/admin/ctf/create_challenge', { ...FORM, category: 'Cooking' })).status,
        ).toBe(400);
        expect(
          (await admin.post('/api/admin/ctf/create_challenge', { ...FORM, difficulty: 'Trivial' })).status,
        ).toBe(400);
        expect(
          (await admin.post('/api/admin/ctf/create_challenge', { ...FORM, files: ['nope.zip'] })).status,
        ).toBe(400);
        expect((await admin.post('/api/admin/ctf/create_challenge', FORM)).status).toBe(200);
        const dup = await admin.post('/api/admin/ctf/create_challenge', { ...FORM, name: 'web 101' });
        expect(dup.status).toBe(409);
        expect(dup.body.acknowledge).toBe(false);
      });

      it('updates a challenge, keeping points derived from difficulty', async () => {
        const c = await addChallenge(t, { name: 'Old' });
        await addFileRow(t, 'new.zip');
        const res = await admin.post('/api/admin/ctf/update_challenge', {
          ...FORM,
          challenge_id: String(c.id),
          name: 'New',
          difficulty: 'Extreme',
          files: ['new.zip'],
        });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ acknowledge: true, message: "Challenge 'New' updated successfully." });
        const [got] = (await admin.get('/api/admin/ctf/fetch_challenges')).body;
        expect(got).toMatchObject({
          _id: String(c.id),
          name: 'New',
          points: 400,
          hlinks: ['new.zip'],
          flag: 'flag{web}',
        });
        const missing = await admin.post('/api/admin/ctf/update_challenge', {
          ...FORM,
          challenge_id: '9999',
        });
        expect(missing.status).toBe(404);
        expect((await admin.post('/api/admin/ctf/update_challenge', FORM)).status).toBe(400);
      });

      it('toggles a challenge between enabled and disabled', async () => {
        const c = await addChallenge(t);
        await openSite(t);
        const off = await admin.post('/api/admin/ctf/toggle_status', { challenge_id: c.id });
        expect(off.body).toEqual({ acknowledge: true, message: 'Challenge disabled.' });
        const list = (await t.visitor().get('/api/ctf/challenges')).body;
        expect(list.find((x: { _id: string }) => x._id === String(c.id)).is_active).toBe(false);
        const on = await admin.post('/api/admin/ctf/toggle_status', { challenge_id: String(c.id) });
        expect(on.body).toEqual({ acknowledge: true, message: 'Challenge enabled.' });
        expect((await admin.post('/api/admin/ctf/toggle_status', { challenge_id: '777' })).status).toBe(404);
        expect((await admin.post('/api/admin/ctf/toggle_status', {})).status).toBe(400);
      });

      it('deletes a challenge with its solves', async () => {
        const c = await addChallenge(t);
        const alice = await t.login('alice');
        await openSite(t);
        await alice.post('/api/ctf/submit-flag', { flag: c.flag, challenge_id: c.id });
        const res = await admin.post('/api/admin/ctf/delete_challenge', { challenge_id: String(c.id) });
        expect(res.body).toEqual({ acknowledge: true, message: 'Challenge deleted successfully.' });
        expect((await admin.get('/api/admin/ctf/fetch_challenges')).body).toEqual([]);
        expect((await t.visitor().get('/api/info/leaderboard')).body).toEqual([]);
        expect(
          (await admin.post('/api/admin/ctf/delete_challenge', { challenge_id: String(c.id) })).status,
        ).toBe(404);
      });

      it('lists the solvers of each challenge', async () => {
        const c1 = await addChallenge(t, { name: 'Alpha' });
        await addChallenge(t, { name: 'Beta' });
        const alice = await t.login('alice');
        const bob = await t.login('bob');
        await openSite(t);
        await alice.post('/api/ctf/submit-flag', { flag: c1.flag, challenge_id: c1.id });
        await bob.post('/api/ctf/submit-flag', { flag: c1.flag, challenge_id: c1.id });
        const res = await admin.get('/api/admin/ctf/get_solvers');
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          acknowledge: true,
          solvers: { Alpha: ['alice', 'bob'], Beta: [] },
          first_bloods: { Alpha: 'alice' },
        });
      });
    });

    describe('site and caches', () => {
      it('reads and switches the site activation', async () => {
        expect((await admin.get('/api/admin/get_site_info')).body).toEqual({ activated: false });
        const on = await admin.post('/api/admin/update_site_info', { activated: true });
        expect(on.body).toEqual({ acknowledge: true, message: 'The site is now active.' });
        expect((await admin.get('/api/admin/get_site_info')).body).toEqual({ activated: true });
        expect((await t.visitor().get('/api/info/site')).body.activated).toBe(true);
        const off = await admin.post('/api/admin/update_site_info', { activated: false });
        expect(off.body).toEqual({ acknowledge: true, message: 'The site is now inactive.' });
        expect((await t.visitor().get('/api/ctf/challenges')).body).toMatchObject({
          message: MESSAGES.siteInactive,
        });
        expect((await admin.post('/api/admin/update_site_info', { activated: 'yes' })).status).toBe(400);
        expect((await admin.post('/api/admin/update_site_info', {})).status).toBe(400);
      });

      it('force update rebuilds every cached figure from stored solves', async () => {
        const c = await addChallenge(t, { difficulty: 'Simple' });
        const alice = await t.login('alice');
        await openSite(t);
        await alice.post('/api/ctf/submit-flag', { flag: c.flag, challenge_id: c.id });
        expect((await t.visitor().get('/api/info/leaderboard')).body).toEqual([
          { name: 'alice', points: 50 },
        ]);
        // A change written behind the application's back (a restore, a manual fix) may sit in caches...
        await t.ctx.database.db
          .updateTable('challenges')
          .set({ points: 100 })
          .where('id', '=', c.id)
          .execute();
        published.length = 0;
        const res = await admin.get('/api/admin/ctf/force_update');
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ acknowledge: true });
        // Every topic there is, whatever later issues add to the list.
        expect(new Set(published)).toEqual(new Set(ALL_TOPICS));
        expect(published).toContain('solves');
        // ...until the caches are rebuilt from the stored rows.
        expect((await t.visitor().get('/api/info/leaderboard')).body).toEqual([
          { name: 'alice', points: 100 },
        ]);
      });
    });
  });
}
