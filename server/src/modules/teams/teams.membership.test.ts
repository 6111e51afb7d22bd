import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import {
  TEAM_TEXT,
  logins,
  makeTeam,
  seedChallenge,
  seedSolve,
  teamInfo,
} from '../../../test/team-fixtures.js';
import { deleteTeam, joinRequestChecksum, removeMembershipInTransaction } from './teams.service.js';
import { listTeamsForAdmin } from './teams.views.js';

const TEXT = TEAM_TEXT;

for (const kind of testDatabaseKinds()) {
  describe(`team membership on ${kind}`, () => {
    let t: TestApp;
    let published: string[];
    beforeEach(async () => {
      t = await buildTestApp(kind);
      published = [];
      t.ctx.bus.subscribe((topic) => published.push(topic));
    });
    afterEach(async () => {
      await t.close();
    });

    describe('POST /api/team/replace-leader (Leave Team)', () => {
      it('lets a member leave; the team keeps its leader', async () => {
        const [lead, m1, m2] = [await t.login('lead'), await t.login('m1'), await t.login('m2')];
        await makeTeam(lead, 'Rooks', [m1, m2]);
        const res = await m1.post('/api/team/replace-leader', { team_data: { name: 'Rooks' } });
        expect(res.status).toBe(200);
        expect(res.body.message).toBe(TEXT.leftTeam);
        expect(await teamInfo(m1)).toBeNull();
        expect((await m1.get('/api/user/info')).body).toMatchObject({
          team: 'None',
          team_id: null,
          is_leader: false,
        });
        expect(await teamInfo(lead)).toMatchObject({
          team_leader: 'lead',
          members: ['lead', 'm2'],
          memberCount: 2,
        });
      });

      it('hands leadership to the longest-standing member and deletes the emptied team', async () => {
        const [lead, m1, m2] = [await t.login('lead'), await t.login('m1'), await t.login('m2')];
        await makeTeam(lead, 'Rooks');
        t.clock.advance(60_000);
        // m2 joins before m1, so m2 inherits.
        await m2.post('/api/team/request', { team_name: 'Rooks' });
        await m1.post('/api/team/request', { team_name: 'Rooks' });
        const reqs = (await teamInfo(lead)).join_requests;
        const byName = (n: string) => reqs.find((r: any) => r.sender_name === n);
        await lead.post('/api/team/add-member', {
          request_id: byName('m2')._id,
          checksum: byName('m2').checksum,
        });
        t.clock.advance(60_000);
        await lead.post('/api/team/add-member', {
          request_id: byName('m1')._id,
          checksum: byName('m1').checksum,
        });
        expect((await teamInfo(lead)).members).toEqual(['lead', 'm2', 'm1']);

        expect((await lead.post('/api/team/replace-leader', { team_data: { name: 'rooks' } })).status).toBe(
          200,
        );
        expect(await teamInfo(m1)).toMatchObject({
          team_leader: 'm2',
          members: ['m2', 'm1'],
          memberCount: 2,
        });
        expect((await m2.get('/api/user/info')).body.is_leader).toBe(true);

        expect((await m2.post('/api/team/replace-leader', { team_data: { name: 'Rooks' } })).status).toBe(
          200,
        );
        expect(await teamInfo(m1)).toMatchObject({ team_leader: 'm1', members: ['m1'], memberCount: 1 });

        const last = await m1.post('/api/team/replace-leader', { team_data: { name: 'Rooks' } });
        expect(last.status).toBe(200);
        expect(last.body.message).toBe(TEXT.leftAndDeleted);
        expect(await t.ctx.database.db.selectFrom('teams').select('id').execute()).toEqual([]);
        expect((await m1.get('/api/team/list')).body).toEqual([]);
      });

      it('keeps solves with the team after a member leaves', async () => {
        const [lead, m1] = [await t.login('lead'), await t.login('m1')];
        await makeTeam(lead, 'Rooks', [m1]);
        const teamId = Number((await teamInfo(lead))._id);
        const ch = await seedChallenge(t, 'Kept', 200);
        await seedSolve(t, m1.user!.id, ch, teamId, '2026-01-10T12:30:00.000Z');
        await m1.post('/api/team/replace-leader', { team_data: { name: 'Rooks' } });
        expect((await teamInfo(lead)).completions).toEqual([
          { id: String(ch), memberName: 'm1', points: 200, name: 'Kept', time: '2026-01-10T12:30:00.000Z' },
        ]);
      });

      it('refuses another team name and a teamless caller (400), and bad bodies', async () => {
        const [lead, other, loner] = [await t.login('lead'), await t.login('other'), await t.login('loner')];
        await makeTeam(lead, 'Rooks');
        await makeTeam(other, 'Others');
        const wrong = await lead.post('/api/team/replace-leader', { team_data: { name: 'Others' } });
        expect(wrong.status).toBe(400);
        expect(wrong.body.message).toBe(TEXT.notYourTeam);
        const none = await loner.post('/api/team/replace-leader', { team_data: { name: 'Rooks' } });
        expect(none.status).toBe(400);
        expect(none.body.message).toBe(TEXT.notInTeam);
        for (const body of [{}, { team_data: 'Rooks' }, { team_data: {} }, { team_data: { name: 5 } }]) {
          expect((await lead.post('/api/team/replace-leader', body)).status).toBe(400);
        }
        expect((await teamInfo(lead)).members).toEqual(['lead']);
      });
    });

    describe('POST /api/team/remove-member', () => {
      it('lets the leader remove a member', async () => {
        const [lead, m1] = [await t.login('lead'), await t.login('m1')];
        await makeTeam(lead, 'Rooks', [m1]);
        const res = await lead.post('/api/team/remove-member', { member_username: 'M1' });
        expect(res.status).toBe(200);
        expect(res.body.message).toBe(TEXT.memberRemoved);
        expect(await teamInfo(m1)).toBeNull();
        expect(await teamInfo(lead)).toMatchObject({ members: ['lead'], memberCount: 1, spotsLeft: 3 });
        expect(published.filter((p) => p === 'teams').length).toBeGreaterThan(0);
      });

      it('never removes the leader (400), only members (404), only by the leader (403)', async () => {
        const [lead, m1, stranger] = [await t.login('lead'), await t.login('m1'), await t.login('stranger')];
        await makeTeam(lead, 'Rooks', [m1]);
        const self = await lead.post('/api/team/remove-member', { member_username: 'lead' });
        expect(self.status).toBe(400);
        expect(self.body.message).toBe(TEXT.leaderCannotBeRemoved);
        const notMember = await lead.post('/api/team/remove-member', { member_username: 'stranger' });
        expect(notMember.status).toBe(404);
        expect(notMember.body.message).toBe(TEXT.memberNotFound);
        expect((await lead.post('/api/team/remove-member', { member_username: 'ghost' })).status).toBe(404);
        const byMember = await m1.post('/api/team/remove-member', { member_username: 'lead' });
        expect(byMember.status).toBe(403);
        expect((await stranger.post('/api/team/remove-member', { member_username: 'm1' })).status).toBe(403);
        for (const body of [{}, { member_username: '' }, { member_username: 3 }]) {
          expect((await lead.post('/api/team/remove-member', body)).status).toBe(400);
        }
        expect((await teamInfo(lead)).members).toEqual(['lead', 'm1']);
      });
    });

    describe('POST /api/team/add-member', () => {
      it("accepts a request and removes the sender's other pending requests", async () => {
        const [lead, other, bob] = [await t.login('lead'), await t.login('other'), await t.login('bob')];
        await makeTeam(lead, 'Rooks');
        await makeTeam(other, 'Others');
        await bob.post('/api/team/request', { team_name: 'Rooks' });
        await bob.post('/api/team/request', { team_name: 'Others' });
        expect((await teamInfo(other)).join_requests).toHaveLength(1);
        const [req] = (await teamInfo(lead)).join_requests;
        const res = await lead.post('/api/team/add-member', { request_id: req._id, checksum: req.checksum });
        expect(res.status).toBe(200);
        expect(res.body.message).toBe(TEXT.memberAdded);
        expect(await teamInfo(lead)).toMatchObject({
          members: ['lead', 'bob'],
          memberCount: 2,
          join_requests: [],
        });
        expect((await teamInfo(other)).join_requests).toEqual([]);
        expect((await bob.get('/api/user/info')).body.team).toBe('Rooks');
        // The request id also works as a number.
        expect(
          (await lead.post('/api/team/add-member', { request_id: Number(req._id), checksum: req.checksum }))
            .status,
        ).toBe(404);
      });

      it('refuses a wrong checksum (403) and a reused one (404)', async () => {
        const [lead, bob] = [await t.login('lead'), await t.login('bob')];
        await makeTeam(lead, 'Rooks');
        await bob.post('/api/team/request', { team_name: 'Rooks' });
        const [req] = (await teamInfo(lead)).join_requests;
        const wrong = await lead.post('/api/team/add-member', {
          request_id: req._id,
          checksum: req.checksum.slice(1) + 'A',
        });
        expect(wrong.status).toBe(403);
        expect(wrong.body.message).toBe(TEXT.badChecksum);
        expect((await teamInfo(lead)).memberCount).toBe(1);
        expect(
          (await lead.post('/api/team/add-member', { request_id: req._id, checksum: req.checksum })).status,
        ).toBe(200);
        const reused = await lead.post('/api/team/add-member', {
          request_id: req._id,
          checksum: req.checksum,
        });
        expect(reused.status).toBe(404);
        expect(reused.body.message).toBe(TEXT.requestNotFound);
      });

      it('refuses non-leaders (403) and requests for another team (403)', async () => {
        const [lead, m1, other, bob] = [
          await t.login('lead'),
          await t.login('m1'),
          await t.login('other'),
          await t.login('bob'),
        ];
        await makeTeam(lead, 'Rooks', [m1]);
        await makeTeam(other, 'Others');
        await bob.post('/api/team/request', { team_name: 'Others' });
        const [req] = (await teamInfo(other)).join_requests;
        const byMember = await m1.post('/api/team/add-member', {
          request_id: req._id,
          checksum: req.checksum,
        });
        expect(byMember.status).toBe(403);
        expect(byMember.body.message).toBe(TEXT.leaderOnly);
        const foreign = await lead.post('/api/team/add-member', {
          request_id: req._id,
          checksum: req.checksum,
        });
        expect(foreign.status).toBe(403);
        expect(foreign.body.message).toBe(TEXT.requestNotForYourTeam);
        expect((await teamInfo(other)).memberCount).toBe(1);
      });

      it('answers 409 when the team is full or the sender joined elsewhere', async () => {
        const users = await logins(t, ['a', 'b', 'c', 'd', 'e', 'f']);
        const [a, b, c, d, e, f] = users as [
          TestClient,
          TestClient,
          TestClient,
          TestClient,
          TestClient,
          TestClient,
        ];
        await makeTeam(a, 'Rooks', [b, c]);
        await d.post('/api/team/request', { team_name: 'Rooks' });
        await e.post('/api/team/request', { team_name: 'Rooks' });
        const reqs = (await teamInfo(a)).join_requests;
        expect(
          (await a.post('/api/team/add-member', { request_id: reqs[0]._id, checksum: reqs[0].checksum }))
            .status,
        ).toBe(200);
        const full = await a.post('/api/team/add-member', {
          request_id: reqs[1]._id,
          checksum: reqs[1].checksum,
        });
        expect(full.status).toBe(409);
        expect(full.body.message).toBe(TEXT.teamFull);
        expect((await teamInfo(a)).memberCount).toBe(4);

        // f asks Rooks' rival, then creates a team of their own: the stale request cannot be accepted.
        const rival = await t.login('rival');
        await makeTeam(rival, 'Rivals');
        await f.post('/api/team/request', { team_name: 'Rivals' });
        expect((await teamInfo(rival)).join_requests).toHaveLength(1);
        await makeTeam(f, 'Own');
        expect((await teamInfo(rival)).join_requests).toEqual([]);
        // Creating a team dropped f's requests; put one back as a concurrent request would leave it.
        const rivalId = Number((await teamInfo(rival))._id);
        const reqId = (
          await t.ctx.database.db
            .insertInto('join_requests')
            .values({ team_id: rivalId, user_id: f.user!.id, created_at: t.clock.now().toISOString() })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
        const elsewhere = await rival.post('/api/team/add-member', {
          request_id: String(reqId),
          checksum: joinRequestChecksum(t.ctx, reqId, rivalId, f.user!.id),
        });
        expect(elsewhere.status).toBe(409);
        expect(elsewhere.body.message).toBe(TEXT.userJoinedElsewhere);
        expect(await teamInfo(rival)).toMatchObject({ memberCount: 1, join_requests: [] });
        expect(
          await t.ctx.database.db.selectFrom('join_requests').select('id').where('id', '=', reqId).execute(),
        ).toEqual([]);
      });

      it.each([
        [{}],
        [{ request_id: '1' }],
        [{ checksum: 'abc' }],
        [{ request_id: 'abc', checksum: 'abc' }],
        [{ request_id: '-1', checksum: 'abc' }],
        [{ request_id: '1', checksum: '' }],
        [{ request_id: '1', checksum: 7 }],
      ])('answers 400 to %j', async (body) => {
        const lead = await t.login('lead');
        await makeTeam(lead, 'Rooks');
        expect((await lead.post('/api/team/add-member', body)).status).toBe(400);
      });
    });

    describe('functions for the admin module', () => {
      it('listTeamsForAdmin shows every team with blank checksums', async () => {
        const users = await logins(t, ['a', 'b', 'c', 'd', 'e']);
        const [a, b, c, d, e] = users as [TestClient, TestClient, TestClient, TestClient, TestClient];
        await makeTeam(a, 'Full', [b, c, d]);
        await makeTeam(e, 'Alone');
        const lone = await t.login('asker');
        await lone.post('/api/team/request', { team_name: 'Alone' });
        const teams = await listTeamsForAdmin(t.ctx);
        expect(teams.map((x) => [x.name, x.team_leader, x.memberCount, x.spotsLeft])).toEqual([
          ['Alone', 'e', 1, 3],
          ['Full', 'a', 4, 0],
        ]);
        expect(teams[0]!.join_requests).toEqual([
          { _id: expect.any(String), checksum: '', sender_name: 'asker' },
        ]);
        expect(teams[1]!.members).toEqual(['a', 'b', 'c', 'd']);
      });

      it('deleteTeam frees the members, drops requests and keeps solves with the old team id', async () => {
        const [lead, m1, asker] = [await t.login('lead'), await t.login('m1'), await t.login('asker')];
        await makeTeam(lead, 'Rooks', [m1]);
        await asker.post('/api/team/request', { team_name: 'Rooks' });
        const teamId = Number((await teamInfo(lead))._id);
        const ch = await seedChallenge(t, 'Kept', 100);
        await seedSolve(t, m1.user!.id, ch, teamId, '2026-01-10T12:30:00.000Z');
        published.length = 0;
        await deleteTeam(t.ctx, teamId);
        expect(published).toContain('teams');
        expect(await teamInfo(lead)).toBeNull();
        expect(await teamInfo(m1)).toBeNull();
        expect(await t.ctx.database.db.selectFrom('join_requests').select('id').execute()).toEqual([]);
        const solves = await t.ctx.database.db.selectFrom('solves').select(['team_id']).execute();
        expect(solves).toEqual([{ team_id: teamId }]);
        // Free again: the old name can be used.
        expect((await lead.post('/api/team/create', { team_name: 'Rooks' })).status).toBe(200);
        await expect(deleteTeam(t.ctx, 999_999)).rejects.toMatchObject({ statusCode: 404 });
      });

      it('removeMembershipInTransaction hands leadership on, deletes an emptied team, ignores the teamless', async () => {
        const [lead, m1, loner] = [await t.login('lead'), await t.login('m1'), await t.login('loner')];
        await makeTeam(lead, 'Rooks', [m1]);
        await t.ctx.database.transaction((trx) => removeMembershipInTransaction(t.ctx, trx, lead.user!.id));
        expect(await teamInfo(m1)).toMatchObject({ team_leader: 'm1', members: ['m1'], memberCount: 1 });
        await t.ctx.database.transaction((trx) => removeMembershipInTransaction(t.ctx, trx, loner.user!.id));
        await t.ctx.database.transaction((trx) => removeMembershipInTransaction(t.ctx, trx, m1.user!.id));
        expect(await t.ctx.database.db.selectFrom('teams').select('id').execute()).toEqual([]);
      });
    });
  });
}
