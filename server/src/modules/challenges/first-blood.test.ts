import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/build-test-app.js';
import { addChallenge, makeTeam, type SeededChallenge } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { startedEvent, type StartedEvent } from '../../../test/fixtures.js';

const SUBMIT = '/api/ctf/submit-flag';

for (const kind of testDatabaseKinds()) {
  describe(`first blood on ${kind}`, () => {
    let t: StartedEvent<never, 'boss', 'rsa'>;
    let admin: TestClient;
    let c: SeededChallenge;
    beforeEach(async () => {
      t = await startedEvent({ kind, admins: ['boss'], challenges: { rsa: { name: 'Baby RSA' } } });
      admin = t.admin;
      c = t.challenges.rsa;
    });
    afterEach(async () => {
      await t.close();
    });

    const solve = (who: TestClient, ch = c) =>
      who.post(SUBMIT, { challenge_id: String(ch.id), flag: ch.flag });
    const listed = async (ch = c) =>
      (await t.visitor().get('/api/ctf/challenges')).body.find(
        (x: { _id: string }) => x._id === String(ch.id),
      ).first_blood;
    const detail = async (who: TestClient) =>
      (await who.post('/api/ctf/challenge', { challenge_id: String(c.id) })).body.first_blood;
    const announced = async () =>
      (
        await t.ctx.database.db
          .selectFrom('live_events')
          .select('data')
          .where('type', '=', 'first-blood')
          .orderBy('id')
          .execute()
      ).map((r) => JSON.parse(r.data));

    it('is the first solve by a non-admin: on the list and the detail, named by team, announced once', async () => {
      expect(await listed()).toBeNull();
      await solve(admin);
      expect(await listed()).toBeNull();
      const ann = await t.login('ann');
      const bob = await t.login('bob');
      await makeTeam(t, 'Rooks', [ann.user!.id]);
      expect((await solve(ann)).status).toBe(200);
      expect(await listed()).toBe('Rooks');
      expect(await detail(bob)).toBe('Rooks');
      await solve(bob);
      expect(await listed()).toBe('Rooks');
      await expect.poll(announced).toEqual([{ challenge: 'Baby RSA', competitor: 'Rooks' }]);

      const solvers = await admin.get('/api/admin/ctf/get_solvers');
      expect(solvers.body.first_bloods).toEqual({ 'Baby RSA': 'ann' });
      expect(solvers.body.solvers['Baby RSA']).toEqual(['boss', 'ann', 'bob']);
    });

    it('passes to the next solve when its solver is removed, without a second announcement', async () => {
      const ann = await t.login('ann');
      const bob = await t.login('bob');
      await solve(ann);
      await solve(bob);
      expect(await listed()).toBe('ann');
      const removed = await admin.post('/api/admin/remove_user', { user_id: String(ann.user!.id) });
      expect(removed.status).toBe(200);
      expect(await listed()).toBe('bob');
      await expect.poll(announced).toEqual([{ challenge: 'Baby RSA', competitor: 'ann' }]);
    });

    it('is announced exactly once when many correct flags arrive together', async () => {
      const players = await Promise.all(Array.from({ length: 8 }, (_, i) => t.login(`p${i}`)));
      const answers = await Promise.all(players.map((p) => solve(p)));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      await expect.poll(async () => (await announced()).length).toBe(1);
      const [{ competitor }] = await announced();
      expect(await listed()).toBe(competitor);
      const notices = await t.ctx.database.db.selectFrom('first_blood_notices').selectAll().execute();
      expect(notices).toHaveLength(1);
    });

    it('keeps each challenge its own first blood', async () => {
      const other = await addChallenge(t, { name: 'Other' });
      const ann = await t.login('ann');
      const bob = await t.login('bob');
      await solve(ann);
      await solve(bob, other);
      await solve(ann, other);
      expect(await listed()).toBe('ann');
      expect(await listed(other)).toBe('bob');
    });
  });
}
