import { teamsApi } from '@ctf/contract';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../test/build-test-app.js';
import { addChallenge, makeTeam, openSite } from '../../test/compete.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { flushSubmissionLog } from '../modules/submission-log/submission-log.service.js';

/**
 * Issue 29, reproduction 3: a team named `PLAYER1` made the team-flag API and the admin's reveal
 * answer the team's own flag for the solo player `player1`, whose real flag then counted as
 * another competitor's. Team names and usernames are one namespace now, and the flag lookups go
 * by id, or by a name only when it means one competitor.
 */
for (const kind of testDatabaseKinds()) {
  describe(`one namespace for team names and usernames on ${kind}`, () => {
    const token = `service-token-${randomBytes(24).toString('hex')}`;
    let t: TestApp;
    let admin: TestClient;
    let player1: TestClient;
    let mallory: TestClient;
    beforeEach(async () => {
      t = await buildTestApp(kind, { ADMIN_API_TOKEN: token });
      admin = await t.login('boss', { admin: true });
      player1 = await t.login('player1');
      mallory = await t.login('mallory');
      await openSite(t);
    });
    afterEach(async () => {
      await t.close();
    });

    it("refuses a team name that is a player's name, whatever its case or width, on create and rename", async () => {
      for (const name of ['PLAYER1', 'player1', 'ｐｌａｙｅｒ１']) {
        const res = await mallory.post('/api/team/create', { team_name: name });
        expect(res.status, name).toBe(409);
        expect(res.body.message).toBe(teamsApi.TEAM_MESSAGES.nameIsUsername);
      }
      expect(await t.ctx.database.db.selectFrom('teams').select('id').execute()).toEqual([]);
      expect((await mallory.post('/api/team/create', { team_name: 'Mallory Crew' })).status).toBe(200);
      const rename = await mallory.post('/api/team/update', { team_name: 'Player1' });
      expect(rename.status).toBe(409);
      expect(rename.body.message).toBe(teamsApi.TEAM_MESSAGES.nameIsUsername);
      expect((await player1.get('/api/team/list')).body.map((e: { name: string }) => e.name)).toEqual([
        'Mallory Crew',
      ]);
    });

    it("gives a new player whose handle is a team's name a numeric suffix", async () => {
      await makeTeam(t, 'Rocket', [mallory.user!.id]);
      const rocket = await t.login('ROCKET');
      expect(rocket.user!.username).toBe('ROCKET2');
    });

    it('serves a per-team flag by id, and refuses a name that a database from before gives to two competitors', async () => {
      const c = await addChallenge(t, { name: 'Per team', flag: 'flag{base}', per_team: true });
      // A pair from before the namespace: a team named like player1, made straight in the database.
      const teamId = await makeTeam(t, 'PLAYER1', [mallory.user!.id]);
      const byName = await admin.post('/api/admin/ctf/reveal_team_flag', { challenge_id: c.id, competitor: 'player1' });
      expect(byName.status).toBe(409);
      expect(byName.body.message).toBe("'player1' names both a team and a user: ask by team_id or user_id.");
      const auth = { authorization: `Bearer ${token}` };
      const serviceByName = await t.visitor().get(`/api/admin/ctf/team-flag?challenge=${c.id}&team=player1`, auth);
      expect(serviceByName.status).toBe(409);

      const ofPlayer = await admin.post('/api/admin/ctf/reveal_team_flag', {
        challenge_id: c.id,
        user_id: player1.user!.id,
      });
      expect(ofPlayer.status, ofPlayer.text).toBe(200);
      expect(ofPlayer.body.competitor).toBe('player1');
      const ofTeam = await t.visitor().get(`/api/admin/ctf/team-flag?challenge=${c.id}&team_id=${teamId}`, auth);
      expect(ofTeam.status, ofTeam.text).toBe(200);
      expect(ofTeam.body.team).toBe('PLAYER1');
      expect(ofTeam.body.flag).not.toBe(ofPlayer.body.flag);
      const ofPlayerService = await t
        .visitor()
        .get(`/api/admin/ctf/team-flag?challenge=${c.id}&user_id=${player1.user!.id}`, auth);
      expect(ofPlayerService.body.flag).toBe(ofPlayer.body.flag);

      // The player's own flag solves for the player and raises no flag-sharing evidence.
      const solved = await player1.post('/api/ctf/submit-flag', { challenge_id: c.id, flag: ofPlayer.body.flag });
      expect(solved.body.message).toBe('Correct Flag!');
      await flushSubmissionLog(t.ctx);
      const signals = (await admin.get('/api/admin/signals')).body as { kind: string }[];
      expect(signals.filter((s) => s.kind === 'other_team_flag')).toEqual([]);

      // Exactly one way of naming the competitor.
      for (const body of [{}, { competitor: 'x', user_id: player1.user!.id }, { team_id: teamId, user_id: 1 }]) {
        const res = await admin.post('/api/admin/ctf/reveal_team_flag', { challenge_id: c.id, ...body });
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      const none = await admin.post('/api/admin/ctf/reveal_team_flag', { challenge_id: c.id, team_id: 999_999 });
      expect(none.status).toBe(404);
    });
  });
}
