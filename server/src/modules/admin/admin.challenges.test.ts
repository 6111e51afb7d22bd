import { MESSAGES } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, addFileRow, openSite } from '../../../test/compete.js';
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
  describe(`admin challenge and site calls on ${kind}`, () => {
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

      it('creates during the event window once the organisers allow it, and refuses again when they stop', async () => {
        await t.close();
        t = await buildTestApp(kind, {
          EVENT_START: '2026-03-01T00:00:00Z',
          EVENT_END: '2026-03-08T00:00:00Z',
        });
        t.clock.set('2026-03-03T12:00:00Z');
        admin = await t.login('boss', { admin: true });
        const settings = await admin.get('/api/admin/settings');
        expect(settings.body.allowCreateDuringEvent).toBe(false);
        const allow = await admin.post('/api/admin/settings', { allowCreateDuringEvent: true });
        expect(allow.status).toBe(200);
        expect(allow.body.settings.allowCreateDuringEvent).toBe(true);
        // Scheduled for later in the window: it waits there until it is ready.
        const release_at = '2026-03-05T00:00:00.000Z';
        const created = await admin.post('/api/admin/ctf/create_challenge', { ...FORM, release_at });
        expect(created.status).toBe(200);
        expect((await admin.get('/api/admin/ctf/fetch_challenges')).body).toMatchObject([
          { name: 'Web 101' },
        ]);
        await admin.post('/api/admin/settings', { allowCreateDuringEvent: false });
        const refused = await admin.post('/api/admin/ctf/create_challenge', { ...FORM, name: 'Later' });
        expect(refused.status).toBe(403);
        expect(refused.body.message).toBe(MESSAGES.createDisabled);
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
