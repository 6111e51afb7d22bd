import { MESSAGES } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, addFileRow, makeTeam, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { deleteChallenge } from './challenges.service.js';

const LIST = '/api/ctf/challenges';
const DETAIL = '/api/ctf/challenge';
const SUBMIT = '/api/ctf/submit-flag';
const ADMIN_LIST = '/api/admin/ctf/fetch_challenges';
const SCHEDULE = '/api/admin/ctf/schedule_release';
const UPDATE = '/api/admin/ctf/update_challenge';

for (const kind of testDatabaseKinds()) {
  describe(`scheduled release and prerequisites on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;
    beforeEach(async () => {
      t = await buildTestApp(kind);
      await openSite(t);
      admin = await t.login('boss', { admin: true });
    });
    afterEach(async () => {
      await t.close();
    });

    const names = async () => ((await t.visitor().get(LIST)).body as { name: string }[]).map((c) => c.name);
    const inAMinute = () => new Date(t.clock.now().getTime() + 60_000).toISOString();

    it('does not exist for participants before its release, then appears at that moment with no write', async () => {
      await addFileRow(t, 'wave.zip');
      const c = await addChallenge(t, { name: 'Wave 2', release_at: inAMinute(), files: ['wave.zip'] });
      await addChallenge(t, { name: 'Open' });
      const ann = await t.login('ann');
      expect(await names()).toEqual(['Open']);
      expect((await ann.post(DETAIL, { challenge_id: c.id })).status).toBe(404);
      expect((await ann.post(SUBMIT, { challenge_id: c.id, flag: c.flag })).status).toBe(404);
      expect((await ann.get('/api/ctf/download/wave.zip')).status).toBe(404);
      // Admins see it, with its release time.
      expect((await admin.post(DETAIL, { challenge_id: c.id })).status).toBe(200);
      const listed = (await admin.get(ADMIN_LIST)).body.find((x: { name: string }) => x.name === 'Wave 2');
      expect(listed.release_at).toBe(inAMinute());
      t.clock.advance(60_000);
      expect(await names()).toEqual(['Open', 'Wave 2']);
      expect((await ann.post(DETAIL, { challenge_id: c.id })).status).toBe(200);
      expect((await ann.post(SUBMIT, { challenge_id: c.id, flag: c.flag })).body.message).toBe(
        MESSAGES.correctFlag,
      );
    });

    it('announces the release on the live stream when it happens', async () => {
      const challengeEvents = async () =>
        (
          await t.ctx.database.db
            .selectFrom('live_events' as never)
            .select('id' as never)
            .where('type' as never, '=', 'challenges' as never)
            .execute()
        ).length;
      await addChallenge(t, {
        name: 'Soon',
        release_at: new Date(t.clock.now().getTime() + 20).toISOString(),
      });
      expect(await names()).toEqual([]);
      await vi.waitFor(async () => expect(await challengeEvents()).toBeGreaterThan(0), { timeout: 5000 });
      const before = await challengeEvents();
      // The list read above armed the announcement for the release time; the clock gets there.
      t.clock.advance(20);
      await vi.waitFor(async () => expect(await challengeEvents()).toBeGreaterThan(before), {
        timeout: 5000,
      });
      expect(await names()).toEqual(['Soon']);
    });

    it('sets the release time of several challenges at once, and clears it', async () => {
      const a = await addChallenge(t, { name: 'A' });
      const b = await addChallenge(t, { name: 'B' });
      await addChallenge(t, { name: 'C' });
      const res = await admin.post(SCHEDULE, {
        challenge_ids: [a.id, String(b.id)],
        release_at: inAMinute(),
      });
      expect(res.body).toMatchObject({ acknowledge: true });
      expect(res.body.message).toContain('2 challenge(s) scheduled for');
      expect(await names()).toEqual(['C']);
      await admin.post(SCHEDULE, { challenge_ids: [a.id], release_at: null });
      expect(await names()).toEqual(['A', 'C']);
      const unknown = await admin.post(SCHEDULE, { challenge_ids: [a.id, 99999], release_at: null });
      expect(unknown.status).toBe(404);
      const bad = await admin.post(SCHEDULE, { challenge_ids: [a.id], release_at: 'tomorrow' });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/release_at/);
      expect((await admin.post(SCHEDULE, { challenge_ids: [], release_at: null })).status).toBe(400);
      expect(
        (await (await t.login('ann')).post(SCHEDULE, { challenge_ids: [a.id], release_at: null })).status,
      ).toBe(403);
      expect((await t.visitor().post(SCHEDULE, { challenge_ids: [a.id], release_at: null })).status).toBe(
        401,
      );
    });

    it('shows a challenge locked (name and category, no content) until the competitor solved its prerequisites', async () => {
      await addFileRow(t, 'stage2.zip');
      const first = await addChallenge(t, { name: 'Stage 1' });
      const second = await addChallenge(t, {
        name: 'Stage 2',
        description: '<p>secret stage</p>',
        prerequisites: [first.id],
        files: ['stage2.zip'],
        hints: [{ title: 'h', content: 'hidden', cost: 0 }],
      });
      const listed = (await t.visitor().get(LIST)).body.find((c: { name: string }) => c.name === 'Stage 2');
      expect(listed).toMatchObject({ description: '', hlinks: [], prerequisites: [String(first.id)] });
      const [ann, bob] = [await t.login('ann'), await t.login('bob')];
      await makeTeam(t, 'Red', [ann.user!.id, bob.user!.id]);
      const locked = (await (await t.login('bob')).post(DETAIL, { challenge_id: second.id })).body;
      expect(locked).toMatchObject({
        name: 'Stage 2',
        category: 'General',
        locked: true,
        description: '',
        hlinks: [],
        hints: [],
      });
      expect(JSON.stringify(locked)).not.toMatch(/secret stage|stage2\.zip|hidden/);
      const refused = await (
        await t.login('bob')
      ).post(SUBMIT, { challenge_id: second.id, flag: second.flag });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(MESSAGES.challengeLocked);
      expect((await (await t.login('bob')).get('/api/ctf/download/stage2.zip')).status).toBe(404);
      // A team-mate solves the prerequisite: the team's competitor is through.
      await (await t.login('ann')).post(SUBMIT, { challenge_id: first.id, flag: first.flag });
      const open = (await (await t.login('bob')).post(DETAIL, { challenge_id: second.id })).body;
      expect(open.locked).toBeUndefined();
      expect(open.description).toBe('<p>secret stage</p>');
      expect(open.hlinks).toEqual(['stage2.zip']);
      // Someone else is still locked out.
      expect((await (await t.login('cy')).post(DETAIL, { challenge_id: second.id })).body.locked).toBe(true);
    });

    it('frees a locked challenge when its prerequisite is removed', async () => {
      const first = await addChallenge(t, { name: 'Gate' });
      const second = await addChallenge(t, { name: 'Behind', prerequisites: [first.id] });
      const ann = await t.login('ann');
      expect((await ann.post(DETAIL, { challenge_id: second.id })).body.locked).toBe(true);
      await deleteChallenge(t.ctx, first.id);
      expect((await ann.post(DETAIL, { challenge_id: second.id })).body.locked).toBeUndefined();
      expect((await ann.post(SUBMIT, { challenge_id: second.id, flag: second.flag })).body.message).toBe(
        MESSAGES.correctFlag,
      );
    });

    it('refuses unknown, self and circular prerequisites with 400', async () => {
      const a = await addChallenge(t, { name: 'A' });
      const b = await addChallenge(t, { name: 'B', prerequisites: [a.id] });
      const body = { name: 'A', category: 'General', difficulty: 'Easy', written_by: 'x', flag: 'f' };
      for (const prerequisites of [[99999], [a.id], [b.id]]) {
        const res = await admin.post(UPDATE, { ...body, challenge_id: a.id, prerequisites });
        expect(res.status, JSON.stringify(prerequisites)).toBe(400);
        expect(res.body.message).toMatch(/prerequisites/);
      }
      const listed = (await admin.get(ADMIN_LIST)).body.find((c: { name: string }) => c.name === 'B');
      expect(listed.prerequisites).toEqual([String(a.id)]);
    });
  });
}
