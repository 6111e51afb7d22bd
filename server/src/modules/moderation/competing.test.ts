import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, openSite, type SeededChallenge } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';

/**
 * Staff do not compete by default (docs/decisions/0014-least-privilege.md): monitors and authors,
 * like admins, are left out of every public list and first blood by the one counting filter
 * (db/counted.ts) until an admin marks one as competing (POST /api/admin/set_competing, audited).
 */

const SET = '/api/admin/set_competing';

for (const kind of testDatabaseKinds()) {
  describe(`staff who compete on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;
    let writer: TestClient;
    let watcher: TestClient;
    let player: TestClient;
    let warmup: SeededChallenge;

    beforeEach(async () => {
      t = await buildTestApp(kind);
      admin = await t.login('boss', { admin: true });
      writer = await t.login('writer', { role: 'author' });
      watcher = await t.login('watcher', { role: 'monitor' });
      player = await t.login('pat');
      warmup = await addChallenge(t, { name: 'Warmup' });
      await openSite(t);
    });
    afterEach(async () => {
      await t.close();
    });

    const solve = (client: TestClient, c: SeededChallenge) =>
      client.post('/api/ctf/submit-flag', { challenge_id: c.id, flag: c.flag });
    const board = async () =>
      ((await t.visitor().get('/api/info/leaderboard')).body as { name: string }[]).map((e) => e.name);
    const listed = async () =>
      (
        (await t.visitor().get('/api/ctf/challenges')).body as {
          name: string;
          first_blood: string | null;
          user_completions: number;
        }[]
      ).find((c) => c.name === 'Warmup')!;

    it('leaves authors and monitors out of the board, the counts and first bloods by default', async () => {
      expect((await solve(writer, warmup)).status).toBe(200);
      expect((await solve(watcher, warmup)).status).toBe(200);
      expect(await board()).toEqual([]);
      expect(await listed()).toMatchObject({ first_blood: null, user_completions: 0 });
      expect((await solve(player, warmup)).status).toBe(200);
      expect(await board()).toEqual(['pat']);
      expect(await listed()).toMatchObject({ first_blood: 'pat', user_completions: 1 });
    });

    it('counts a monitor or author once an admin marks it competing (audited), and drops it again', async () => {
      await solve(writer, warmup);
      const res = await admin.post(SET, { user_id: String(writer.user!.id), competing: true });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await board()).toEqual(['writer']);
      expect((await listed()).user_completions).toBe(1);
      const users = (await admin.get('/api/admin/get_users')).body as {
        username: string;
        competing: boolean;
      }[];
      expect(users.find((u) => u.username === 'writer')!.competing).toBe(true);
      expect(users.find((u) => u.username === 'pat')!.competing).toBe(false);
      const audit = (await admin.get('/api/admin/audit?action=user.competing')).body.rows;
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({
        admin: 'boss',
        target: `user 'writer' (#${writer.user!.id})`,
        details: { before: { competing: false }, after: { competing: true } },
      });
      expect((await admin.post(SET, { user_id: String(writer.user!.id), competing: true })).status).toBe(409);
      expect((await admin.post(SET, { user_id: String(writer.user!.id), competing: false })).status).toBe(
        200,
      );
      expect(await board()).toEqual([]);
    });

    it('refuses players (they always compete), admins (never), unknown users, bad input, and non-admins', async () => {
      const set = (client: TestClient, body: unknown) => client.post(SET, body);
      expect((await set(admin, { user_id: String(player.user!.id), competing: true })).status).toBe(400);
      expect((await set(admin, { user_id: String(admin.user!.id), competing: true })).status).toBe(400);
      expect((await set(admin, { user_id: '99999', competing: true })).status).toBe(404);
      expect((await set(admin, { user_id: String(writer.user!.id), competing: 'yes' })).status).toBe(400);
      for (const client of [writer, watcher, player])
        expect((await set(client, { user_id: String(writer.user!.id), competing: true })).status).toBe(403);
      expect((await admin.get('/api/admin/audit?action=user.competing')).body.rows).toEqual([]);
    });
  });
}
