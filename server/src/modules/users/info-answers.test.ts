import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { addChallenge, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { makeTeam, teamInfo } from '../../../test/team-fixtures.js';
import { updateChallenge } from '../challenges/challenges.service.js';
import { getTeamInfoAnswer } from '../teams/teams.views.js';
import { findUserById } from './users.repo.js';
import { getUserInfoAnswer } from './users.service.js';

// User and team info are kept per user between requests; every write that shows in them must show
// at the very next read.
for (const kind of testDatabaseKinds()) {
  describe(`kept user and team answers on ${kind}`, () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await buildTestApp(kind);
      await openSite(t);
    });
    afterEach(async () => {
      await t.close();
    });

    it('user info follows a solve, a rating and a challenge rename at the next read', async () => {
      const c = await addChallenge(t, { name: 'Warmup' });
      const ann = await t.login('ann');
      const info = async () => (await ann.get('/api/user/info')).body;
      expect((await info()).completions).toEqual([]);
      await ann.post('/api/ctf/submit-flag', { flag: c.flag, challenge_id: String(c.id) });
      expect((await info()).completions.map((x: { name: string }) => x.name)).toEqual(['Warmup']);
      expect(
        (await ann.post('/api/ctf/rate-challenge', { challenge_id: String(c.id), rating: 4 })).status,
      ).toBe(200);
      expect((await info()).user_rates).toEqual([String(c.id)]);
      await updateChallenge(t.ctx, c.id, {
        name: 'Warm-up',
        description: '<p>Find the flag.</p>',
        category: 'General',
        difficulty: 'Easy',
        written_by: 'Tester',
        flag: c.flag,
        files: [],
      });
      expect((await info()).completions.map((x: { name: string }) => x.name)).toEqual(['Warm-up']);
    });

    it('team info follows a request, an acceptance and a teammate solve at the next read', async () => {
      const c = await addChallenge(t);
      const lead = await t.login('lead');
      const bea = await t.login('bea');
      await makeTeam(lead, 'Owls');
      expect((await teamInfo(lead)).join_requests).toEqual([]);
      await bea.post('/api/team/request', { team_name: 'Owls' });
      const [request] = (await teamInfo(lead)).join_requests;
      expect(request.sender_name).toBe('bea');
      expect((await bea.get('/api/team/info')).body).toBeNull();
      await lead.post('/api/team/add-member', { request_id: request._id, checksum: request.checksum });
      expect((await teamInfo(bea)).name).toBe('Owls');
      expect((await teamInfo(lead)).completions).toEqual([]);
      await bea.post('/api/ctf/submit-flag', { flag: c.flag, challenge_id: String(c.id) });
      expect((await teamInfo(lead)).completions).toHaveLength(1);
    });

    it("a solve rebuilds its solver's and its team's answers only; a solve recorded elsewhere too", async () => {
      const [c1, c2] = [await addChallenge(t, { name: 'One' }), await addChallenge(t, { name: 'Two' })];
      const lead = await t.login('lead');
      const bea = await t.login('bea');
      const cat = await t.login('cat');
      await makeTeam(lead, 'Owls', [bea]);
      await makeTeam(cat, 'Bats');
      const answers = async () => {
        const out = [];
        for (const c of [lead, bea, cat]) {
          const user = (await findUserById(t.ctx.database.db, c.user!.id))!;
          out.push(await getUserInfoAnswer(t.ctx, user), await getTeamInfoAnswer(t.ctx, user));
        }
        return out;
      };
      const [leadUser, leadTeam, beaUser, beaTeam, catUser, catTeam] = await answers();
      expect(await answers()).toEqual([leadUser, leadTeam, beaUser, beaTeam, catUser, catTeam]);

      await bea.post('/api/ctf/submit-flag', { flag: c1.flag, challenge_id: String(c1.id) });
      const after = await answers();
      expect(after[0]).toBe(leadUser);
      expect(after[1]).not.toBe(leadTeam);
      expect(after[2]).not.toBe(beaUser);
      expect(after[3]).not.toBe(beaTeam);
      expect(after[4]).toBe(catUser);
      expect(after[5]).toBe(catTeam);
      expect((await teamInfo(lead)).completions).toHaveLength(1);
      expect((await bea.get('/api/user/info')).body.completions).toHaveLength(1);

      // As another process records it: the row, then the publication.
      await t.ctx.database.db
        .insertInto('solves')
        .values({
          user_id: cat.user!.id,
          challenge_id: c2.id,
          team_id: Number((await teamInfo(cat))._id),
          created_at: t.clock.now().toISOString(),
        })
        .execute();
      t.ctx.bus.publish('solves-added');
      expect((await teamInfo(cat)).completions).toHaveLength(1);
      expect((await cat.get('/api/user/info')).body.completions).toHaveLength(1);
      expect((await teamInfo(lead)).completions).toHaveLength(1);
    });

    it('is marked private, revalidates with an ETag, and differs between users', async () => {
      const ann = await t.login('ann');
      const bob = await t.login('bob');
      const first = await ann.get('/api/user/info');
      expect(first.headers['cache-control']).toBe('private, no-cache');
      const again = await ann.get('/api/user/info', { 'if-none-match': String(first.headers.etag) });
      expect(again.status).toBe(304);
      expect((await bob.get('/api/user/info')).body.username).toBe('bob');
      expect((await t.visitor().get('/api/user/info')).body).toBeNull();
    });
  });
}
