import { MESSAGES } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/build-test-app.js';
import { releasedTogether } from '../../../test/barrier.js';
import { addChallenge, makeTeam, openSite, setTeam } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { startedEvent, type StartedEvent } from '../../../test/fixtures.js';

const UNLOCK = '/api/ctf/unlock-hint';
const DETAIL = '/api/ctf/challenge';
const SUBMIT = '/api/ctf/submit-flag';
const LIST = '/api/admin/ctf/fetch_challenges';
const UPDATE = '/api/admin/ctf/update_challenge';

for (const kind of testDatabaseKinds()) {
  describe(`hints on ${kind}`, () => {
    let t: StartedEvent<never, 'boss', 'hinted'>;
    let c: { id: number; name: string; flag: string };
    let hintIds: string[];
    beforeEach(async () => {
      t = await startedEvent({
        kind,
        admins: ['boss'],
        challenges: {
          hinted: {
            name: 'Hinted',
            difficulty: 'Medium',
            hints: [
              { title: 'Free nudge', content: 'Look at **the source**', cost: 0 },
              { title: 'Big hint', content: 'It is base64 <script>alert(1)</script>', cost: 50 },
            ],
          },
        },
      });
      c = t.challenges.hinted;
      hintIds = (await t.admin.get(LIST)).body[0].hints.map((h: { _id: string }) => h._id);
    });
    afterEach(async () => {
      await t.close();
    });

    const detail = async (client: TestClient) => (await client.post(DETAIL, { challenge_id: c.id })).body;

    it('shows titles and costs but no locked content, then the content once unlocked', async () => {
      const ann = await t.login('ann');
      const before = await detail(ann);
      expect(before.hints).toEqual([
        { _id: hintIds[0], title: 'Free nudge', cost: 0, unlocked: false },
        { _id: hintIds[1], title: 'Big hint', cost: 50, unlocked: false },
      ]);
      expect(JSON.stringify(before)).not.toContain('base64');
      expect((await t.visitor().get('/api/ctf/challenges')).text).not.toMatch(/base64|the source/);
      const res = await ann.post(UNLOCK, { hint_id: hintIds[1] });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe(MESSAGES.hintUnlocked);
      // Markdown rendered and sanitised when saved.
      expect(res.body.content).toContain('It is base64');
      expect(res.body.content).not.toContain('<script');
      const after = await detail(ann);
      expect(after.hints[1]).toEqual({ ...before.hints[1], unlocked: true, content: res.body.content });
      expect(after.hints[0].unlocked).toBe(false);
    });

    it('belongs to the team: every member sees it, it costs once, and it never moves', async () => {
      const [ann, bob] = [await t.login('ann'), await t.login('bob')];
      await makeTeam(t, 'Red', [ann.user!.id, bob.user!.id]);
      await (await t.login('ann')).post(SUBMIT, { flag: c.flag, challenge_id: c.id });
      expect(await t.board()).toEqual([{ name: 'Red', points: 200 }]);
      await (await t.login('ann')).post(UNLOCK, { hint_id: hintIds[1] });
      await (await t.login('bob')).post(UNLOCK, { hint_id: hintIds[1] });
      expect((await detail(await t.login('bob'))).hints[1].unlocked).toBe(true);
      expect(await t.board()).toEqual([{ name: 'Red', points: 150 }]);
      // Ann leaves: the unlock stays the team's, and Ann alone sees it locked.
      await setTeam(t, ann.user!.id, null);
      expect((await detail(await t.login('ann'))).hints[1].unlocked).toBe(false);
      expect((await detail(await t.login('bob'))).hints[1].unlocked).toBe(true);
      expect(await t.board()).toEqual([{ name: 'Red', points: 150 }]);
    });

    it('costs once under 50 parallel unlocks by one team', async () => {
      const members = [await t.login('m1'), await t.login('m2'), await t.login('m3')];
      await makeTeam(
        t,
        'Blue',
        members.map((m) => m.user!.id),
      );
      const clients = await Promise.all(members.map((m) => t.login(m.user!.username)));
      await clients[0]!.post(SUBMIT, { flag: c.flag, challenge_id: c.id });
      const answers = await releasedTogether(
        Array.from({ length: 50 }, (_, i) => () => clients[i % 3]!.post(UNLOCK, { hint_id: hintIds[1] })),
      );
      expect(answers.every((a) => a.status === 200)).toBe(true);
      const rows = await t.ctx.database.db.selectFrom('hint_unlocks').select(['team_id']).execute();
      expect(rows).toHaveLength(1);
      expect(await t.board()).toEqual([{ name: 'Blue', points: 150 }]);
    });

    it('takes a teamless user’s unlock costs from their own score, incrementally', async () => {
      const ann = await t.login('ann');
      const other = await addChallenge(t, { difficulty: 'Easy' });
      await ann.post(SUBMIT, { flag: c.flag, challenge_id: c.id });
      expect(await t.board()).toEqual([{ name: 'ann', points: 200 }]);
      await ann.post(UNLOCK, { hint_id: hintIds[0] });
      expect(await t.board()).toEqual([{ name: 'ann', points: 200 }]);
      await ann.post(UNLOCK, { hint_id: hintIds[1] });
      expect(await t.board()).toEqual([{ name: 'ann', points: 150 }]);
      await ann.post(SUBMIT, { flag: other.flag, challenge_id: other.id });
      expect(await t.board()).toEqual([{ name: 'ann', points: 250 }]);
      // Costs above the solves' points take the competitor off the board (points above 0 only).
      const bob = await t.login('bob');
      await bob.post(UNLOCK, { hint_id: hintIds[1] });
      expect(await t.board()).toEqual([{ name: 'ann', points: 250 }]);
    });

    it('shows admins every hint’s content and who unlocked it', async () => {
      await (await t.login('ann')).post(UNLOCK, { hint_id: hintIds[0] });
      const admin = await t.login('boss', { admin: true });
      const [listed] = (await admin.get(LIST)).body;
      expect(listed.hints.map((h: { unlocked_by: string[] }) => h.unlocked_by)).toEqual([['ann'], []]);
      expect(listed.hints[0].content).toContain('<strong>the source</strong>');
      expect((await detail(admin)).hints.every((h: { content?: string }) => h.content)).toBe(true);
    });

    it('keeps unlocks when an edit keeps the hint by _id, and drops them with a removed hint', async () => {
      const ann = await t.login('ann');
      await ann.post(SUBMIT, { flag: c.flag, challenge_id: c.id });
      await ann.post(UNLOCK, { hint_id: hintIds[1] });
      const admin = await t.login('boss', { admin: true });
      const body = {
        challenge_id: c.id,
        name: 'Hinted',
        category: 'General',
        difficulty: 'Medium',
        written_by: 'Tester',
        flag: c.flag,
      };
      await admin.post(UPDATE, {
        ...body,
        hints: [{ _id: hintIds[1], title: 'Big', content: 'b64', cost: 80 }],
      });
      expect((await detail(ann)).hints).toEqual([
        { _id: hintIds[1], title: 'Big', cost: 80, unlocked: true, content: '<p>b64</p>' },
      ]);
      expect(await t.board()).toEqual([{ name: 'ann', points: 120 }]);
      const foreign = await admin.post(UPDATE, {
        ...body,
        hints: [{ _id: '999', title: 'x', content: '', cost: 1 }],
      });
      expect(foreign.status).toBe(400);
      expect(foreign.body.message).toMatch(/hints\.0\._id/);
      await admin.post(UPDATE, { ...body, hints: [] });
      expect(await t.board()).toEqual([{ name: 'ann', points: 200 }]);
    });

    it('is refused while the site is inactive, logged out, for an unknown hint and for bad input', async () => {
      const ann = await t.login('ann');
      expect((await t.visitor().post(UNLOCK, { hint_id: hintIds[0] })).status).toBe(401);
      expect((await ann.post(UNLOCK, { hint_id: '999999' })).status).toBe(404);
      const bad = await ann.post(UNLOCK, { hint_id: 'x' });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/hint_id/);
      await openSite(t, false);
      const closed = await ann.post(UNLOCK, { hint_id: hintIds[0] });
      expect(closed.status).toBe(403);
      expect(closed.body.message).toBe(MESSAGES.siteInactive);
      expect(await t.ctx.database.db.selectFrom('hint_unlocks').select('id').execute()).toEqual([]);
    });
  });
}
