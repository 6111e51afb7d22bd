import { DIVISION_MESSAGES, LEADERBOARD_PAGE } from '@ctf/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/build-test-app.js';
import { releasedTogether } from '../../../test/barrier.js';
import type { SeededChallenge } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { startedEvent, type StartedEvent } from '../../../test/fixtures.js';
import { makeTeam, teamInfo } from '../../../test/team-fixtures.js';

const DIVISIONS = '/api/admin/divisions';
const PICK = '/api/user/division';
const BOARD = '/api/info/leaderboard';
const TOTAL = LEADERBOARD_PAGE.totalHeader.toLowerCase();
const RANK = LEADERBOARD_PAGE.callerRankHeader.toLowerCase();

for (const kind of testDatabaseKinds()) {
  describe(`divisions on ${kind}`, () => {
    let t: StartedEvent<never, 'root'>;
    let admin: TestClient;
    /** One challenge of each difficulty, Simple (50) to Extreme (400). */
    let challenges: SeededChallenge[];

    beforeEach(async () => {
      t = await startedEvent({
        kind,
        admins: ['root'],
        challenges: { simple: 'Simple', easy: 'Easy', medium: 'Medium', hard: 'Hard', extreme: 'Extreme' },
      });
      admin = t.admin;
      challenges = Object.values(t.challenges);
    });
    afterEach(async () => {
      await t.close();
    });

    async function define(divisions: { name: string; emailDomains?: string[] }[]) {
      const res = await admin.post(DIVISIONS, { divisions });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    }

    async function pick(client: TestClient, division: string | null) {
      return client.post(PICK, { division });
    }

    it('without divisions every answer stays as before; defining them is audited and shown', async () => {
      const ann = await t.login('ann');
      await t.solve(ann, challenges[1]!);
      const before = {
        site: (await t.visitor().get('/api/info/site')).body,
        info: (await ann.get('/api/user/info')).text,
        board: (await t.visitor().get(BOARD)).text,
        users: (await admin.get('/api/admin/get_users')).text,
      };
      expect(before.site.divisions).toEqual([]);
      expect(JSON.parse(before.info)).not.toHaveProperty('division');
      expect(before.board).toBe(JSON.stringify([{ name: 'ann', points: 100 }]));
      expect(before.users).not.toContain('division');
      // With none defined the filter is ignored and a pick is refused.
      expect((await t.visitor().get(`${BOARD}?division=Open`)).text).toBe(before.board);
      const refused = await pick(ann, 'Open');
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(`Invalid division: ${DIVISION_MESSAGES.unknown}`);

      const saved = await define([
        { name: ' First-years ', emailDomains: ['Uni.example', '@students.uni.example'] },
        { name: 'Open' },
      ]);
      expect(saved.divisions).toEqual([
        { name: 'First-years', emailDomains: ['uni.example', 'students.uni.example'] },
        { name: 'Open', emailDomains: [] },
      ]);
      expect((await t.visitor().get('/api/info/site')).body.divisions).toEqual(['First-years', 'Open']);
      expect((await admin.get(DIVISIONS)).body).toEqual({ divisions: saved.divisions });
      expect((await ann.get('/api/user/info')).body.division).toBeNull();
      expect((await t.visitor().get(BOARD)).body).toEqual([{ name: 'ann', points: 100, division: null }]);
      const audit = await t.ctx.database.db
        .selectFrom('audit_log')
        .select(['action', 'admin_name', 'details'])
        .where('action', '=', 'divisions.update')
        .execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]!.admin_name).toBe('root');
      expect(JSON.parse(audit[0]!.details).after).toEqual(saved.divisions);

      // Admin only; bad lists are refused with the field named and change nothing.
      expect((await ann.post(DIVISIONS, { divisions: [] })).status).toBe(403);
      for (const [body, field] of [
        [{ divisions: [{ name: 'A' }, { name: 'a' }] }, 'divisions.1.name'],
        [{ divisions: [{ name: '', emailDomains: [] }] }, 'divisions.0.name'],
        [{ divisions: [{ name: 'A', emailDomains: ['not a domain'] }] }, 'divisions.0.emailDomains.0'],
        [{ divisions: 'A' }, 'divisions'],
      ] as const) {
        const res = await admin.post(DIVISIONS, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.message, JSON.stringify(body)).toMatch(
          new RegExp(`^Invalid ${field.replace(/\./g, '\\.')}: `),
        );
      }
      expect((await t.visitor().get('/api/info/site')).body.divisions).toEqual(['First-years', 'Open']);
    });

    it('a user picks a division (domains checked) until their first solve', async () => {
      await define([{ name: 'First-years', emailDomains: ['uni.example'] }, { name: 'Open' }]);
      const ann = await t.login('ann');
      const bob = await t.login('bob');
      await t.ctx.database.db
        .updateTable('users')
        .set({ email: 'bob@Uni.Example' })
        .where('id', '=', bob.user!.id)
        .execute();

      const limited = await pick(ann, 'First-years');
      expect(limited.status).toBe(403);
      expect(limited.body.message).toBe(DIVISION_MESSAGES.emailNotAllowed);
      const unknown = await pick(ann, 'Seniors');
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toBe(`Invalid division: ${DIVISION_MESSAGES.unknown}`);
      expect((await ann.post(PICK, { division: 3 })).body.message).toMatch(/^Invalid division: /);

      const ok = await pick(bob, 'first-YEARS');
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({
        acknowledge: true,
        message: DIVISION_MESSAGES.picked,
        division: 'First-years',
      });
      expect((await bob.get('/api/user/info')).body.division).toBe('First-years');
      expect((await pick(ann, 'Open')).status).toBe(200);
      expect((await ann.get('/api/user/info')).body.division).toBe('Open');
      expect((await pick(ann, null)).body.division).toBeNull();
      expect((await pick(ann, 'Open')).status).toBe(200);

      await t.solve(ann, challenges[0]!);
      const locked = await pick(ann, null);
      expect(locked.status).toBe(409);
      expect(locked.body.message).toBe(DIVISION_MESSAGES.lockedAfterSolve);
      // Picking the division one is already in is not a change.
      expect((await pick(ann, 'open')).status).toBe(200);
      expect((await ann.get('/api/user/info')).body.division).toBe('Open');
      const listed = (await admin.get('/api/admin/get_users')).body as {
        username: string;
        division: string;
      }[];
      expect(listed.find((u) => u.username === 'ann')!.division).toBe('Open');
    });

    it("a team plays in its leader's division and accepts only members of it", async () => {
      await define([{ name: 'First-years' }, { name: 'Open' }]);
      const [lead, bea, cal] = [await t.login('lead'), await t.login('bea'), await t.login('cal')];
      expect((await pick(lead, 'Open')).status).toBe(200);
      expect((await pick(bea, 'First-years')).status).toBe(200);
      await makeTeam(lead, 'Owls');

      const refused = await bea.post('/api/team/request', { team_name: 'Owls' });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(DIVISION_MESSAGES.joinOtherDivision);
      // Someone with no division cannot join a team of a division either.
      expect((await cal.post('/api/team/request', { team_name: 'Owls' })).body.message).toBe(
        DIVISION_MESSAGES.joinOtherDivision,
      );

      // A request made in the right division, then a change before the leader accepts.
      expect((await pick(bea, 'Open')).status).toBe(200);
      expect((await bea.post('/api/team/request', { team_name: 'Owls' })).status).toBe(200);
      expect((await pick(bea, 'First-years')).status).toBe(200);
      const [request] = (await teamInfo(lead)).join_requests;
      const accepted = await lead.post('/api/team/add-member', {
        request_id: request._id,
        checksum: request.checksum,
      });
      expect(accepted.status).toBe(409);
      expect(accepted.body.message).toBe(DIVISION_MESSAGES.acceptOtherDivision);
      expect((await bea.get('/api/team/info')).body).toBeNull();

      // A leader alone on a team without solves may move it; with a member, nobody may.
      expect((await pick(lead, 'First-years')).status).toBe(200);
      const again = await lead.post('/api/team/add-member', {
        request_id: request._id,
        checksum: request.checksum,
      });
      expect(again.status).toBe(200);
      for (const who of [lead, bea]) {
        const res = await pick(who, 'Open');
        expect(res.status).toBe(409);
        expect(res.body.message).toBe(DIVISION_MESSAGES.teamDecides);
      }
      // The team's solves lock it even once its leader is alone again.
      await t.solve(bea, challenges[0]!);
      expect((await bea.post('/api/team/replace-leader', { team_data: { name: 'Owls' } })).status).toBe(200);
      const teamLocked = await pick(lead, 'Open');
      expect(teamLocked.status).toBe(409);
      expect(teamLocked.body.message).toBe(DIVISION_MESSAGES.teamHasSolves);
    });

    it('filters the leaderboard, its pages, the score graph, the CTFtime feed and the exports by division', async () => {
      await define([{ name: 'First-years' }, { name: 'Open' }]);
      const plan: [string, string | null, number[]][] = [
        ['ann', 'Open', [4]], // 400
        ['bob', 'First-years', [3]], // 300
        ['cat', 'Open', [2]], // 200
        ['dan', 'First-years', [1]], // 100
        ['eve', null, [0]], // 50
        ['fay', 'First-years', [0, 1]], // 150
      ];
      const clients = new Map<string, TestClient>();
      for (const [name, division] of plan) {
        const c = await t.login(name);
        clients.set(name, c);
        if (division) expect((await pick(c, division)).status).toBe(200);
      }
      // A team of First-years (its leader's division) with one more First-year.
      const gil = await t.login('gil');
      const hal = await t.login('hal');
      for (const c of [gil, hal]) expect((await pick(c, 'First-years')).status).toBe(200);
      await makeTeam(gil, 'Geese', [hal]);
      for (const [name, , list] of plan)
        for (const i of list) await t.solve(clients.get(name)!, challenges[i]!);
      await t.solve(hal, challenges[4]!); // Geese 400, after ann
      await t.solve(admin, challenges[3]!); // an admin: never on a board

      expect((await t.visitor().get(BOARD)).body).toEqual([
        { name: 'ann', points: 400, division: 'Open' },
        { name: 'Geese', points: 400, division: 'First-years' },
        { name: 'bob', points: 300, division: 'First-years' },
        { name: 'cat', points: 200, division: 'Open' },
        { name: 'fay', points: 150, division: 'First-years' },
        { name: 'dan', points: 100, division: 'First-years' },
        { name: 'eve', points: 50, division: null },
      ]);
      const firstYears = [
        { name: 'Geese', points: 400, division: 'First-years' },
        { name: 'bob', points: 300, division: 'First-years' },
        { name: 'fay', points: 150, division: 'First-years' },
        { name: 'dan', points: 100, division: 'First-years' },
      ];
      expect((await t.visitor().get(`${BOARD}?division=First-years`)).body).toEqual(firstYears);
      expect(
        (await t.visitor().get(`${BOARD}?division=open`)).body.map((e: { name: string }) => e.name),
      ).toEqual(['ann', 'cat']);

      // Pages within the division: ranks, total and the caller's rank are the division's.
      const fay = clients.get('fay')!;
      const page = await fay.get(`${BOARD}?division=First-years&limit=2&offset=1`);
      expect(page.body).toEqual([
        { ...firstYears[1], rank: 2 },
        { ...firstYears[2], rank: 3 },
      ]);
      expect(page.headers[TOTAL]).toBe('4');
      expect(page.headers[RANK]).toBe('3');
      const around = await hal.get(`${BOARD}?division=First-years&around=me&limit=1`);
      expect(around.body).toEqual([{ ...firstYears[0], rank: 1 }]);
      expect(around.headers[RANK]).toBe('1');
      const searched = await fay.get(`${BOARD}?division=First-years&q=A`);
      expect(searched.body.map((r: { name: string }) => r.name)).toEqual(['fay', 'dan']);
      expect(searched.headers[TOTAL]).toBe('2');
      // Off the division: no rank header, around=me gives the division's top page.
      const annAround = await clients.get('ann')!.get(`${BOARD}?division=First-years&around=me&limit=2`);
      expect(annAround.body.map((r: { name: string }) => r.name)).toEqual(['Geese', 'bob']);
      expect(annAround.headers[RANK]).toBeUndefined();
      expect((await clients.get('ann')!.get(`${BOARD}?limit=1`)).headers[RANK]).toBe('1');

      for (const url of [
        `${BOARD}?division=Seniors`,
        `${BOARD}?division=Seniors&limit=2`,
        '/api/ctftime?division=x',
        '/api/info/scoreboard/graph?division=x',
      ]) {
        const res = await t.visitor().get(url);
        expect(res.status, url).toBe(400);
        expect(res.body.message, url).toBe(`Invalid division: ${DIVISION_MESSAGES.unknown}`);
      }

      // The score graph of a division: its best, as its leaderboard ranks them, each ending at its score.
      const graph = (await t.visitor().get('/api/info/scoreboard/graph?top=3&division=First-years')).body;
      expect(
        graph.series.map((s: { name: string; points: { score: number }[] }) => [
          s.name,
          s.points.at(-1)!.score,
        ]),
      ).toEqual([
        ['Geese', 400],
        ['bob', 300],
        ['fay', 150],
      ]);
      const whole = (await t.visitor().get('/api/info/scoreboard/graph?top=3')).body;
      expect(whole.series.map((s: { name: string }) => s.name)).toEqual(['ann', 'Geese', 'bob']);

      const feed = (await t.visitor().get('/api/ctftime?division=First-years')).body;
      expect(feed.standings.map((s: { pos: number; team: string }) => [s.pos, s.team])).toEqual([
        [1, 'Geese'],
        [2, 'bob'],
        [3, 'fay'],
        [4, 'dan'],
      ]);
      expect((await t.visitor().get('/api/ctftime')).body.standings).toHaveLength(7);

      const rows = (await admin.get('/api/admin/export/scoreboard.json?division=Open')).body;
      expect(rows.map((r: { pos: number; name: string }) => [r.pos, r.name])).toEqual([
        [1, 'ann'],
        [2, 'cat'],
      ]);
      const csv = (await admin.get('/api/admin/export/scoreboard.csv?division=Open')).text;
      expect(
        csv
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => l.split(',').slice(0, 3).join(',')),
      ).toEqual(['1,user,ann', '2,user,cat']);
      const solves = (await admin.get('/api/admin/export/solves.csv?division=First-years')).text;
      const solvers = solves
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',')[1]);
      expect(solvers.sort()).toEqual(['bob', 'dan', 'fay', 'fay', 'hal']);
      expect((await admin.get('/api/admin/export/solves.json?division=nope')).status).toBe(400);
    });

    it('keeps members of a division kept by name and clears those of a removed one', async () => {
      await define([{ name: 'First-years' }, { name: 'Open' }]);
      const ann = await t.login('ann');
      const bob = await t.login('bob');
      expect((await pick(ann, 'First-years')).status).toBe(200);
      expect((await pick(bob, 'Open')).status).toBe(200);
      await t.solve(ann, challenges[0]!);
      await t.solve(bob, challenges[1]!);
      // Renamed only in case and limited to a domain: ann stays; Open goes: bob has none.
      await define([{ name: 'FIRST-YEARS', emailDomains: ['uni.example'] }, { name: 'Seniors' }]);
      expect((await ann.get('/api/user/info')).body.division).toBe('FIRST-YEARS');
      expect((await bob.get('/api/user/info')).body.division).toBeNull();
      expect((await t.visitor().get(BOARD)).body).toEqual([
        { name: 'bob', points: 100, division: null },
        { name: 'ann', points: 50, division: 'FIRST-YEARS' },
      ]);
      expect((await t.visitor().get(`${BOARD}?division=Seniors`)).body).toEqual([]);
      // bob has solved: his division stays locked (documented in decision 0008).
      expect((await pick(bob, 'Seniors')).status).toBe(409);
      // Removing them all brings back the answers of a site without divisions.
      await define([]);
      expect((await t.visitor().get(BOARD)).text).toBe(
        JSON.stringify([
          { name: 'bob', points: 100 },
          { name: 'ann', points: 50 },
        ]),
      );
      expect((await ann.get('/api/user/info')).body).not.toHaveProperty('division');
    });

    it('a division change racing a first solve or a join leaves no one solved or teamed in another division', async () => {
      await define([{ name: 'First-years' }, { name: 'Open' }]);
      for (let round = 0; round < 6; round++) {
        // A change and a first solve at once: either the change came first (the solve counts in
        // the new division) or the solve did (the change is refused).
        const user = await t.login(`racer${round}`);
        expect((await pick(user, 'Open')).status).toBe(200);
        const [changed] = await releasedTogether([
          () => pick(user, 'First-years'),
          () =>
            user.post('/api/ctf/submit-flag', {
              flag: challenges[0]!.flag,
              challenge_id: String(challenges[0]!.id),
            }),
        ]);
        const division = (await user.get('/api/user/info')).body.division;
        if (changed!.status === 200) expect(division).toBe('First-years');
        else {
          expect(changed!.body.message).toBe(DIVISION_MESSAGES.lockedAfterSolve);
          expect(division).toBe('Open');
        }
        const solved = await t.ctx.database.db
          .selectFrom('solves')
          .select('id')
          .where('user_id', '=', user.user!.id)
          .execute();
        expect(solved).toHaveLength(1);

        // A leader accepting a request while the sender changes division: never a mixed team.
        const lead = await t.login(`lead${round}`);
        const joiner = await t.login(`joiner${round}`);
        for (const c of [lead, joiner]) expect((await pick(c, 'Open')).status).toBe(200);
        await makeTeam(lead, `Team ${round}`);
        expect((await joiner.post('/api/team/request', { team_name: `Team ${round}` })).status).toBe(200);
        const [request] = (await teamInfo(lead)).join_requests;
        await releasedTogether([
          () => pick(joiner, 'First-years'),
          () => lead.post('/api/team/add-member', { request_id: request._id, checksum: request.checksum }),
        ]);
        const rows = await t.ctx.database.db
          .selectFrom('users')
          .select(['team_id', 'division_id'])
          .where('id', 'in', [lead.user!.id, joiner.user!.id])
          .execute();
        const [a, b] = rows;
        if (a!.team_id !== null && a!.team_id === b!.team_id) expect(a!.division_id).toBe(b!.division_id);
      }
    });
  });
}
