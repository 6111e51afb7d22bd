import { MAX_TEAM_SIZE, MESSAGES, WRONG_FLAG_LIMIT, teamsApi } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectTeamInvariants, releasedTogether } from '../../test/barrier.js';
import { buildTestApp, type TestApp, type TestClient } from '../../test/build-test-app.js';
import { addChallenge, openSite } from '../../test/compete.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { logins, makeTeam, teamInfo } from '../../test/team-fixtures.js';

/**
 * Races the database must settle (docs/product.md §14), with the requests released together from a
 * barrier and the rows counted afterwards. The races of one module live beside it
 * (teams.race.test.ts: six accepts for three spots, one name created twice, one user accepted by
 * two teams, everyone leaving at once; submissions.test.ts: twenty copies of the right flag);
 * these are the ones that cross modules or were missing.
 */

const TEXT = teamsApi.TEAM_MESSAGES;
const statuses = (answers: { status: number }[]) => answers.map((a) => a.status).sort();

for (const kind of testDatabaseKinds()) {
  describe(`races on ${kind}`, () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await buildTestApp(kind);
      await openSite(t);
    });
    afterEach(async () => {
      await t.close();
    });

    const count = async (table: 'solves' | 'ratings' | 'teams' | 'join_requests') =>
      (await t.ctx.database.db.selectFrom(table).selectAll().execute()).length;

    it('ten ratings of one solve sent at once record exactly one', async () => {
      const c = await addChallenge(t);
      const ann = await t.login('ann');
      expect((await ann.post('/api/ctf/submit-flag', { challenge_id: c.id, flag: c.flag })).status).toBe(200);
      const answers = await releasedTogether(
        Array.from(
          { length: 10 },
          (_, i) => () => ann.post('/api/ctf/rate-challenge', { challenge_id: c.id, rating: (i % 5) + 1 }),
        ),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      for (const refused of answers.filter((a) => a.status !== 200)) {
        expect(refused.status).toBe(409);
        expect(refused.body.message).toContain('Error');
      }
      const rows = await t.ctx.database.db.selectFrom('ratings').select('rating').execute();
      expect(rows).toHaveLength(1);
      const list = (await ann.get('/api/ctf/challenges')).body;
      expect(list.find((x: { _id: string }) => x._id === String(c.id)).rating).toBe(rows[0]!.rating);
    });

    it('a solve and its rating sent together never leave a rating without a solve', async () => {
      const c = await addChallenge(t);
      const users = await logins(t, ['r1', 'r2', 'r3', 'r4', 'r5']);
      await releasedTogether(
        users.flatMap((u) => [
          () => u.post('/api/ctf/submit-flag', { challenge_id: c.id, flag: c.flag }),
          () => u.post('/api/ctf/rate-challenge', { challenge_id: c.id, rating: 4 }),
        ]),
      );
      const db = t.ctx.database.db;
      const solvers = new Set(
        (await db.selectFrom('solves').select('user_id').execute()).map((r) => r.user_id),
      );
      const raters = (await db.selectFrom('ratings').select('user_id').execute()).map((r) => r.user_id);
      expect(solvers.size).toBe(5);
      for (const r of raters) expect(solvers.has(r)).toBe(true);
    });

    it('two team-mates solving at once: two solves, the team scores the challenge once', async () => {
      const c = await addChallenge(t, { difficulty: 'Hard' });
      const [lead, mate] = (await logins(t, ['lead', 'mate'])) as [TestClient, TestClient];
      await makeTeam(lead, 'Pair', [mate]);
      const answers = await releasedTogether(
        [lead, mate, lead, mate].map(
          (u) => () => u.post('/api/ctf/submit-flag', { challenge_id: c.id, flag: c.flag }),
        ),
      );
      expect(answers.filter((a) => a.body.message === MESSAGES.correctFlag)).toHaveLength(2);
      expect(statuses(answers)).toEqual([200, 200, 409, 409]);
      expect(await count('solves')).toBe(2);
      expect((await lead.get('/api/info/leaderboard')).body).toEqual([{ name: 'Pair', points: 300 }]);
      expect((await teamInfo(lead)).completions).toHaveLength(1);
    });

    it('a solve racing a team join is recorded with exactly one of the two teams states', async () => {
      const c = await addChallenge(t);
      const [lead, joiner] = (await logins(t, ['lead', 'joiner'])) as [TestClient, TestClient];
      await makeTeam(lead, 'Joinable');
      await joiner.post('/api/team/request', { team_name: 'Joinable' });
      const [request] = (await teamInfo(lead)).join_requests;
      await releasedTogether([
        () => lead.post('/api/team/add-member', { request_id: request._id, checksum: request.checksum }),
        () => joiner.post('/api/ctf/submit-flag', { challenge_id: c.id, flag: c.flag }),
      ]);
      const solve = await t.ctx.database.db.selectFrom('solves').select('team_id').executeTakeFirstOrThrow();
      const team = await t.ctx.database.db.selectFrom('teams').select('id').executeTakeFirstOrThrow();
      expect([null, team.id]).toContain(solve.team_id);
      const board = (await lead.get('/api/info/leaderboard')).body;
      // Either the team scored it (solved after joining) or nobody shows it (solved alone, then joined).
      expect(board).toEqual(solve.team_id === null ? [] : [{ name: 'Joinable', points: 100 }]);
      await expectTeamInvariants(t);
    });

    it('a burst of wrong flags is answered Incorrect exactly up to the limit, then 429', async () => {
      const c = await addChallenge(t);
      const ann = await t.login('ann');
      const answers = await releasedTogether(
        Array.from(
          { length: WRONG_FLAG_LIMIT * 3 },
          (_, i) => () => ann.post('/api/ctf/submit-flag', { challenge_id: c.id, flag: `guess-${i}` }),
        ),
      );
      expect(
        answers.filter((a) => a.status === 200 && a.body.message === MESSAGES.incorrectFlag),
      ).toHaveLength(WRONG_FLAG_LIMIT);
      expect(answers.filter((a) => a.status === 429)).toHaveLength(WRONG_FLAG_LIMIT * 2);
      // Even the right flag waits now: the limit is checked before the comparison.
      expect((await ann.post('/api/ctf/submit-flag', { challenge_id: c.id, flag: c.flag })).status).toBe(429);
      expect(await count('solves')).toBe(0);
    });

    it('accepts racing the same people creating their own teams never overfill a team or put anyone in two', async () => {
      const [lead, first, ...askers] = (await logins(t, [
        'lead',
        'first',
        'a1',
        'a2',
        'a3',
        'a4',
      ])) as TestClient[];
      await makeTeam(lead!, 'Crowded', [first!]);
      for (const a of askers)
        expect((await a.post('/api/team/request', { team_name: 'Crowded' })).status).toBe(200);
      const requests = (await teamInfo(lead!)).join_requests as {
        _id: string;
        checksum: string;
        sender_name: string;
      }[];
      expect(requests).toHaveLength(4);
      const answers = await releasedTogether([
        ...requests.map(
          (r) => () => lead!.post('/api/team/add-member', { request_id: r._id, checksum: r.checksum }),
        ),
        ...askers.map((a, i) => () => a.post('/api/team/create', { team_name: `Own ${i}` })),
      ]);
      expect(answers.every((a) => a.status < 500)).toBe(true);
      await expectTeamInvariants(t);
      const crowded = await teamInfo(lead!);
      expect(crowded.memberCount).toBeLessThanOrEqual(MAX_TEAM_SIZE);
      const rows = await t.ctx.database.db
        .selectFrom('users')
        .innerJoin('teams', 'teams.id', 'users.team_id')
        .select(['users.username', 'teams.name'])
        .execute();
      for (const a of askers) {
        const homes = rows.filter((r) => r.username === a.user!.username).map((r) => r.name);
        expect(homes, a.user!.username).toHaveLength(1);
      }
      // Every accept that answered 200 put its sender in Crowded; every create that answered 200 made a team of one.
      const accepted = answers.slice(0, 4).filter((a) => a.status === 200).length;
      const created = answers.slice(4).filter((a) => a.status === 200).length;
      expect(accepted + created).toBe(askers.length);
      expect(crowded.memberCount).toBe(2 + accepted);
      expect(await count('teams')).toBe(1 + created);
    });

    it('a member removed while two requests are accepted into the full team: never more than four', async () => {
      const [lead, m1, m2, m3, y, z] = (await logins(t, [
        'lead',
        'm1',
        'm2',
        'm3',
        'y',
        'z',
      ])) as TestClient[];
      await makeTeam(lead!, 'Full', [m1!, m2!, m3!]);
      // The requests were made while there was room elsewhere; the team is full now.
      for (const u of [y!, z!]) {
        await t.ctx.database.db
          .insertInto('join_requests')
          .values({
            team_id: Number((await teamInfo(lead!))._id),
            user_id: u.user!.id,
            created_at: t.clock.now().toISOString(),
          })
          .execute();
      }
      const requests = (await teamInfo(lead!)).join_requests as { _id: string; checksum: string }[];
      const answers = await releasedTogether([
        () => lead!.post('/api/team/remove-member', { member_username: 'm1' }),
        ...requests.map(
          (r) => () => lead!.post('/api/team/add-member', { request_id: r._id, checksum: r.checksum }),
        ),
      ]);
      expect(answers[0]!.status).toBe(200);
      const joined = answers.slice(1).filter((a) => a.status === 200).length;
      expect(joined).toBeLessThanOrEqual(1);
      for (const a of answers.slice(1).filter((x) => x.status !== 200))
        expect(a.body.message).toBe(TEXT.teamFull);
      await expectTeamInvariants(t);
      const info = await teamInfo(lead!);
      expect(info.memberCount).toBe(3 + joined);
      expect(info.members).not.toContain('m1');
    });

    it('removing a member while accepting that same member again ends consistent', async () => {
      const [lead, m] = (await logins(t, ['lead', 'm'])) as [TestClient, TestClient];
      await makeTeam(lead, 'Flip');
      await m.post('/api/team/request', { team_name: 'Flip' });
      const [request] = (await teamInfo(lead)).join_requests;
      await releasedTogether([
        () => lead.post('/api/team/add-member', { request_id: request._id, checksum: request.checksum }),
        () => lead.post('/api/team/remove-member', { member_username: 'm' }),
      ]);
      await expectTeamInvariants(t);
    });

    it('a member leaving while the leader accepts and removes others ends consistent', async () => {
      const [lead, a, b, c, d] = (await logins(t, ['lead', 'a', 'b', 'c', 'd'])) as TestClient[];
      await makeTeam(lead!, 'Busy', [a!, b!]);
      for (const u of [c!, d!]) await u.post('/api/team/request', { team_name: 'Busy' });
      const requests = (await teamInfo(lead!)).join_requests as { _id: string; checksum: string }[];
      await releasedTogether([
        () => a!.post('/api/team/replace-leader', { team_data: { name: 'Busy' } }),
        () => lead!.post('/api/team/remove-member', { member_username: 'b' }),
        ...requests.map(
          (r) => () => lead!.post('/api/team/add-member', { request_id: r._id, checksum: r.checksum }),
        ),
        () => lead!.post('/api/team/replace-leader', { team_data: { name: 'Busy' } }),
      ]);
      await expectTeamInvariants(t);
    });

    it('two teams renamed to one name at once, and a create against a rename: one team gets it', async () => {
      const [a, b, c] = (await logins(t, ['a', 'b', 'c'])) as [TestClient, TestClient, TestClient];
      await makeTeam(a, 'Alpha');
      await makeTeam(b, 'Beta');
      const renames = await releasedTogether([
        () => a.post('/api/team/update', { team_name: 'Gamma' }),
        () => b.post('/api/team/update', { team_name: 'ＧＡＭＭＡ' }),
        () => c.post('/api/team/create', { team_name: 'gamma ' }),
      ]);
      expect(statuses(renames)).toEqual([200, 409, 409]);
      for (const r of renames.filter((x) => x.status === 409)) expect(r.body.message).toBe(TEXT.nameTaken);
      const keys = (await t.ctx.database.db.selectFrom('teams').select('name_key').execute()).map(
        (x) => x.name_key,
      );
      expect(keys.filter((k) => k === 'gamma')).toHaveLength(1);
      expect(new Set(keys).size).toBe(keys.length);
      await expectTeamInvariants(t);
    });

    it('the same join request sent twice at once is stored once', async () => {
      const [lead, u] = (await logins(t, ['lead', 'u'])) as [TestClient, TestClient];
      await makeTeam(lead, 'Once');
      const answers = await releasedTogether(
        [1, 2, 3].map(() => () => u.post('/api/team/request', { team_name: 'Once' })),
      );
      expect(statuses(answers)).toEqual([200, 409, 409]);
      expect(await count('join_requests')).toBe(1);
    });

    it('a user removed by an admin while solving leaves no solve, rating or membership behind', async () => {
      const c = await addChallenge(t);
      const admin = await t.login('boss', { admin: true });
      const [lead, victim] = (await logins(t, ['lead', 'victim'])) as [TestClient, TestClient];
      await makeTeam(lead, 'Shrinking', [victim]);
      await releasedTogether([
        () => victim.post('/api/ctf/submit-flag', { challenge_id: c.id, flag: c.flag }),
        () => victim.post('/api/ctf/rate-challenge', { challenge_id: c.id, rating: 5 }),
        () => admin.post('/api/admin/remove_user', { user_id: victim.user!.id }),
      ]);
      const db = t.ctx.database.db;
      expect(
        await db.selectFrom('solves').select('id').where('user_id', '=', victim.user!.id).execute(),
      ).toEqual([]);
      expect(
        await db.selectFrom('ratings').select('user_id').where('user_id', '=', victim.user!.id).execute(),
      ).toEqual([]);
      expect(await db.selectFrom('users').select('id').where('id', '=', victim.user!.id).execute()).toEqual(
        [],
      );
      await expectTeamInvariants(t);
      expect((await teamInfo(lead)).memberCount).toBe(1);
    });
  });
}
