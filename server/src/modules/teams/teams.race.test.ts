import { MAX_TEAM_SIZE, MESSAGES, teamsApi } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';

const TEXT = teamsApi.TEAM_MESSAGES;

for (const kind of testDatabaseKinds()) {
  describe(`team races on ${kind}`, () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await buildTestApp(kind);
    });
    afterEach(async () => {
      await t.close();
    });

    it('six accepts sent together fill the team to exactly 4 and refuse the rest with 409', async () => {
      const leader = await t.login('leader');
      expect((await leader.post('/api/team/create', { team_name: 'Crowded' })).status).toBe(200);
      const askers: TestClient[] = [];
      for (let i = 1; i <= 6; i++) askers.push(await t.login(`asker${i}`));
      for (const a of askers)
        expect((await a.post('/api/team/request', { team_name: 'Crowded' })).status).toBe(200);
      const requests = (await leader.get('/api/team/info')).body.join_requests;
      expect(requests).toHaveLength(6);

      const answers = await Promise.all(
        requests.map((r: { _id: string; checksum: string }) =>
          leader.post('/api/team/add-member', { request_id: r._id, checksum: r.checksum }),
        ),
      );
      const accepted = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status !== 200);
      expect(accepted).toHaveLength(MAX_TEAM_SIZE - 1);
      expect(refused).toHaveLength(3);
      for (const r of refused) {
        expect(r.status).toBe(409);
        expect(r.body.message).toBe(TEXT.teamFull);
      }

      const info = (await leader.get('/api/team/info')).body;
      expect(info.memberCount).toBe(4);
      expect(info.spotsLeft).toBe(0);
      expect(info.members).toHaveLength(4);
      expect(info.members[0]).toBe('leader');
      // The refused requests are still pending (the team may have room again later).
      expect(info.join_requests).toHaveLength(3);
      expect((await leader.get('/api/team/list')).body).toEqual([]);

      const row = await t.ctx.database.db
        .selectFrom('teams')
        .select(['member_count'])
        .executeTakeFirstOrThrow();
      expect(row.member_count).toBe(4);
      const inTeam = await t.ctx.database.db
        .selectFrom('users')
        .select('username')
        .where('team_id', '=', Number(info._id))
        .execute();
      expect(inTeam.map((u) => u.username).sort()).toEqual([...info.members].sort());

      for (const a of askers) {
        const user = (await a.get('/api/user/info')).body;
        const member = info.members.includes(a.user!.username);
        expect(user.team).toBe(member ? 'Crowded' : 'None');
        expect(user.team_id).toBe(member ? info._id : null);
        const own = (await a.get('/api/team/info')).body;
        expect(own === null ? null : own.name).toBe(member ? 'Crowded' : null);
      }
    });

    it('two users creating the same name at once get one team', async () => {
      const [a, b] = [await t.login('a'), await t.login('b')];
      const answers = await Promise.all([
        a.post('/api/team/create', { team_name: 'Same Name' }),
        b.post('/api/team/create', { team_name: 'same name' }),
      ]);
      expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
      const winner = answers.find((x) => x.status === 200)!;
      const loser = answers.find((x) => x.status === 409)!;
      expect(winner.body.message).toBe(MESSAGES.teamCreated);
      expect(loser.body.message).toBe(TEXT.nameTaken);
      const teams = await t.ctx.database.db.selectFrom('teams').select(['name', 'member_count']).execute();
      expect(teams).toHaveLength(1);
      expect(teams[0]!.member_count).toBe(1);
      const infos = [(await a.get('/api/user/info')).body, (await b.get('/api/user/info')).body];
      expect(infos.filter((u) => u.team !== 'None')).toHaveLength(1);
      expect(infos.filter((u) => u.is_leader)).toHaveLength(1);
    });

    it('one user creating two teams at once ends in exactly one', async () => {
      const a = await t.login('a');
      const answers = await Promise.all([
        a.post('/api/team/create', { team_name: 'First' }),
        a.post('/api/team/create', { team_name: 'Second' }),
      ]);
      expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
      expect(answers.find((x) => x.status === 409)!.body.message).toBe(TEXT.alreadyInTeam);
      expect(await t.ctx.database.db.selectFrom('teams').select('id').execute()).toHaveLength(1);
    });

    it('a user accepted by two teams at once joins only one', async () => {
      const [l1, l2, u] = [await t.login('l1'), await t.login('l2'), await t.login('u')];
      await l1.post('/api/team/create', { team_name: 'One' });
      await l2.post('/api/team/create', { team_name: 'Two' });
      await u.post('/api/team/request', { team_name: 'One' });
      await u.post('/api/team/request', { team_name: 'Two' });
      const [r1] = (await l1.get('/api/team/info')).body.join_requests;
      const [r2] = (await l2.get('/api/team/info')).body.join_requests;
      const answers = await Promise.all([
        l1.post('/api/team/add-member', { request_id: r1._id, checksum: r1.checksum }),
        l2.post('/api/team/add-member', { request_id: r2._id, checksum: r2.checksum }),
      ]);
      expect(answers.filter((x) => x.status === 200)).toHaveLength(1);
      const counts = await t.ctx.database.db
        .selectFrom('teams')
        .select('member_count')
        .orderBy('id')
        .execute();
      expect(counts.map((c) => c.member_count).sort()).toEqual([1, 2]);
      expect((await u.get('/api/user/info')).body.team).not.toBe('None');
    });

    it('all members leaving at once delete the team and leave no one behind', async () => {
      const users: TestClient[] = [];
      for (const n of ['l', 'm1', 'm2', 'm3']) users.push(await t.login(n));
      const [lead, ...members] = users as [TestClient, ...TestClient[]];
      await lead.post('/api/team/create', { team_name: 'Gone' });
      for (const m of members) await m.post('/api/team/request', { team_name: 'Gone' });
      for (const r of (await lead.get('/api/team/info')).body.join_requests) {
        expect(
          (await lead.post('/api/team/add-member', { request_id: r._id, checksum: r.checksum })).status,
        ).toBe(200);
      }
      const answers = await Promise.all(
        users.map((u) => u.post('/api/team/replace-leader', { team_data: { name: 'Gone' } })),
      );
      expect(answers.every((x) => x.status === 200)).toBe(true);
      expect(await t.ctx.database.db.selectFrom('teams').select('id').execute()).toEqual([]);
      const stillIn = await t.ctx.database.db
        .selectFrom('users')
        .select('id')
        .where('team_id', 'is not', null)
        .execute();
      expect(stillIn).toEqual([]);
    });
  });
}
