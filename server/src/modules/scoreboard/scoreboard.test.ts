import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/build-test-app.js';
import { addChallenge, makeTeam, type SeededChallenge } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { scenario, startedEvent, type StartedEvent } from '../../../test/fixtures.js';

const LIST = '/api/ctf/challenges';
const DETAIL = '/api/ctf/challenge';
const GRAPH = '/api/info/scoreboard/graph';
const CTFTIME = '/api/ctftime';
const SITE = '/api/info/site';
const FREEZE = '/api/admin/scoreboard/freeze';
const COMPLETIONS = '/api/info/get-completions';
const CREATE = '/api/admin/ctf/create_challenge';
const UPDATE = '/api/admin/ctf/update_challenge';

const linear = { type: 'dynamic', function: 'linear', initial: 500, minimum: 100, decay: 100 } as const;
const form = {
  description: '',
  category: 'General',
  difficulty: 'Easy',
  written_by: 'club',
  files: [],
};

for (const kind of testDatabaseKinds()) {
  describe(`scoring depth on ${kind}`, () => {
    let t: StartedEvent<never, 'root'>;
    let admin: TestClient;
    beforeEach(async () => {
      t = await startedEvent({ kind, admins: ['root'] });
      admin = t.admin;
    });
    afterEach(async () => {
      await t.close();
    });
    const listed = async (c: SeededChallenge) =>
      (
        (await t.visitor().get(LIST)).body as { _id: string; points: number; user_completions: number }[]
      ).find((x) => x._id === String(c.id))!;

    describe('dynamic scoring', () => {
      it('gives every solver the current value, retroactively, and shows it in the list', async () => {
        const created = await admin.post(CREATE, {
          ...form,
          name: 'Dyn',
          flag: 'flag{dyn}',
          scoring: linear,
        });
        expect(created.status).toBe(200);
        const id = Number(
          (await t.ctx.database.db.selectFrom('challenges').select('id').executeTakeFirstOrThrow()).id,
        );
        const dyn = { id, name: 'Dyn', flag: 'flag{dyn}' };
        const easy = await addChallenge(t, { difficulty: 'Easy' });
        expect(await listed(dyn)).toMatchObject({
          points: 500,
          scoring_type: 'dynamic',
          user_completions: 0,
        });
        expect(await listed(easy)).toMatchObject({ points: 100, scoring_type: 'static' });

        const [ann, bob, cat] = [await t.login('ann'), await t.login('bob'), await t.login('cat')];
        await t.solve(ann, dyn);
        expect(await t.board()).toEqual([{ name: 'ann', points: 500 }]);
        await t.solve(bob, dyn);
        await t.solve(cat, dyn);
        // Three solves: n' = 2, 500 - 100 * 2 = 300 for each of them, the first solver included.
        expect(await t.board()).toEqual([
          { name: 'ann', points: 300 },
          { name: 'bob', points: 300 },
          { name: 'cat', points: 300 },
        ]);
        expect(await listed(dyn)).toMatchObject({ points: 300, user_completions: 3 });
        const detail = await ann.post(DETAIL, { challenge_id: id });
        expect(detail.body).toMatchObject({ points: 300, scoring_type: 'dynamic', user_completions: 3 });
        // Admins' solves are not counted.
        await t.solve(admin, dyn);
        expect(await listed(dyn)).toMatchObject({ points: 300, user_completions: 3 });

        // The admin view shows the parameters; an edit to static rebuilds every score.
        const adminView = (await admin.get('/api/admin/ctf/fetch_challenges')).body.find(
          (c: { _id: string }) => c._id === String(id),
        );
        expect(adminView).toMatchObject({ scoring: linear, points: 300 });
        const edit = await admin.post(UPDATE, { ...form, name: 'Dyn', flag: 'flag{dyn}', challenge_id: id });
        expect(edit.status).toBe(200);
        expect(await t.board()).toEqual([
          { name: 'ann', points: 100 },
          { name: 'bob', points: 100 },
          { name: 'cat', points: 100 },
        ]);
      });

      it('counts a team once per challenge and moves every solver of a dynamic challenge', async () => {
        const dyn = await addChallenge(t, { scoring: { ...linear, decay: 50 } });
        const ann = await t.login('ann');
        const bob = await t.login('bob');
        const cat = await t.login('cat');
        await makeTeam(t, 'Red', [ann.user!.id, bob.user!.id]);
        await t.solve(ann, dyn);
        await t.solve(bob, dyn);
        // Two solves counted (both teammates), the team credited once: 500 - 50 = 450.
        expect(await t.board()).toEqual([{ name: 'Red', points: 450 }]);
        await t.solve(cat, dyn);
        expect(await t.board()).toEqual([
          { name: 'Red', points: 400 },
          { name: 'cat', points: 400 },
        ]);
      });

      it("shows a solve's points as the board counts them wherever solves are listed with points", async () => {
        const dyn = await addChallenge(t, { scoring: linear });
        const easy = await addChallenge(t, { difficulty: 'Easy' });
        const [ann, bob, cat, dan] = [
          await t.login('ann'),
          await t.login('bob'),
          await t.login('cat'),
          await t.login('dan'),
        ];
        await makeTeam(t, 'Red', [ann.user!.id, bob.user!.id]);
        await t.solve(ann, dyn);
        await t.solve(bob, easy);
        /** Every answer that lists Red's solves with points, by challenge id. */
        const shown = async () => {
          const info = (await bob.get('/api/team/info')).body as {
            completions: { id: string; points: number }[];
          };
          const own = (await ann.post(COMPLETIONS, {})).body as {
            teamCompletions: { id: string; points: number }[];
          };
          const teams = (await admin.get('/api/admin/get_teams')).body as {
            name: string;
            completions: { id: string; points: number }[];
          }[];
          const byId = (list: { id: string; points: number }[]) =>
            Object.fromEntries(list.map((c) => [c.id, c.points]));
          return {
            info: byId(info.completions),
            own: byId(own.teamCompletions),
            admin: byId(teams.find((x) => x.name === 'Red')!.completions),
          };
        };
        const expectShown = async (value: number) => {
          const want = { [String(dyn.id)]: value, [String(easy.id)]: 100 };
          expect(await shown()).toEqual({ info: want, own: want, admin: want });
          // ... and the points add up to the team's score on the board.
          expect((await t.board()).find((r: { name: string }) => r.name === 'Red')).toEqual({
            name: 'Red',
            points: value + 100,
          });
        };
        await expectShown(500);
        // Other competitors' solves move the value of Red's solve (the kept answers follow).
        await t.solve(cat, dyn);
        await expectShown(400);
        await t.solve(dan, dyn);
        await expectShown(300);
        // A parameter change too.
        const edit = await admin.post(UPDATE, {
          ...form,
          name: dyn.name,
          flag: dyn.flag,
          challenge_id: dyn.id,
          scoring: { ...linear, decay: 10 },
        });
        expect(edit.status).toBe(200);
        await expectShown(480);
      });

      it.each([
        [{ ...linear, minimum: 600 }, 'scoring.minimum'],
        [{ ...linear, initial: 10_001 }, 'scoring.initial'],
        [{ ...linear, decay: -1 }, 'scoring.decay'],
        [{ ...linear, decay: 1.5 }, 'scoring.decay'],
        [{ ...linear, minimum: 0 }, 'scoring.minimum'],
        [{ ...linear, function: 'exponential' }, 'scoring.function'],
        [{ type: 'sliding' }, 'scoring.type'],
      ])('refuses %o with 400 naming %s', async (scoring, field) => {
        const res = await admin.post(CREATE, { ...form, name: 'Bad', flag: 'flag{bad}', scoring });
        expect(res.status).toBe(400);
        expect(res.body.message).toContain(field);
        expect((await admin.get('/api/admin/ctf/fetch_challenges')).body).toEqual([]);
      });
    });

    describe('freeze', () => {
      it('is set and lifted by admins only, with a date or null', async () => {
        expect((await t.visitor().post(FREEZE, { freeze_at: null })).status).toBe(401);
        expect((await (await t.login('ann')).post(FREEZE, { freeze_at: null })).status).toBe(403);
        const bad = await admin.post(FREEZE, { freeze_at: 'next tuesday' });
        expect(bad.status).toBe(400);
        expect(bad.body.message).toContain('freeze_at');
        expect((await admin.post(FREEZE, {})).body.message).toContain('freeze_at');
        expect((await t.visitor().get(SITE)).body.freezeAt).toBeNull();
        const set = await admin.post(FREEZE, { freeze_at: '2026-01-10T13:00:00+01:00' });
        expect(set.body).toMatchObject({ acknowledge: true, freeze_at: '2026-01-10T12:00:00.000Z' });
        expect((await t.visitor().get(SITE)).body.freezeAt).toBe('2026-01-10T12:00:00.000Z');
        await admin.post(FREEZE, { freeze_at: null });
        expect((await t.visitor().get(SITE)).body.freezeAt).toBeNull();
      });

      for (const scoring of ['static', 'dynamic'] as const) {
        it(`shows the public everything as of the freeze, with ${scoring} scoring (CTFd #986, #1092, #2320)`, async () => {
          const c = await addChallenge(t, {
            difficulty: 'Medium',
            scoring: scoring === 'dynamic' ? linear : { type: 'static' },
          });
          const other = await addChallenge(t, { difficulty: 'Simple' });
          const ann = await t.login('ann');
          const bob = await t.login('bob');
          const cat = await t.login('cat');
          const dan = await t.login('dan');
          await makeTeam(t, 'Blue', [cat.user!.id, dan.user!.id]);
          await t.solve(ann, c);
          await t.solve(bob, other);

          // The freeze is set ahead: nothing changes until the clock reaches it (no job runs).
          const freezeAt = new Date(t.clock.now().getTime() + 60_000).toISOString();
          await admin.post(FREEZE, { freeze_at: freezeAt });
          const before = {
            board: await t.board(),
            list: (await t.visitor().get(LIST)).text,
            graph: (await t.visitor().get(GRAPH)).body,
            ctftime: (await t.visitor().get(CTFTIME)).text,
          };
          expect(before.graph.frozen_at).toBeNull();
          t.clock.advance(120_000);
          const graphAtFreeze = (await t.visitor().get(GRAPH)).body;
          expect(graphAtFreeze).toEqual({ ...before.graph, frozen_at: freezeAt });

          // After the freeze: a team solves; the solver still gets 'Correct Flag!'.
          await t.solve(cat, c);
          await t.solve(bob, c);
          expect(await t.board()).toEqual(before.board);
          expect((await t.visitor().get(LIST)).text).toBe(before.list);
          expect((await t.visitor().get(GRAPH)).body).toEqual(graphAtFreeze);
          expect((await t.visitor().get(CTFTIME)).text).toBe(before.ctftime);
          const frozenValue = scoring === 'dynamic' ? 500 : 200;
          // Players (even those who solved) see the frozen count and value (no decay after the freeze).
          expect((await cat.post(DETAIL, { challenge_id: c.id })).body).toMatchObject({
            points: frozenValue,
            user_completions: 1,
          });
          expect(await t.board(cat)).toEqual(before.board);
          // ... but their own and their team's solves show as solved, at the frozen value.
          const mine = (await dan.post(COMPLETIONS, {})).body;
          expect(mine.teamCompletions).toEqual([
            expect.objectContaining({ id: String(c.id), points: frozenValue }),
          ]);
          expect((await cat.post(COMPLETIONS, {})).body.userCompletions).toEqual([
            expect.objectContaining({ id: String(c.id) }),
          ]);

          // Admins see the live board.
          const live = scoring === 'dynamic' ? 300 : 200;
          const liveBoard = await t.board(admin);
          expect(liveBoard).toEqual(
            expect.arrayContaining([
              { name: 'Blue', points: live },
              { name: 'bob', points: live + 50 },
            ]),
          );
          expect((await admin.get(GRAPH)).body.frozen_at).toBeNull();
          expect((await admin.post(DETAIL, { challenge_id: c.id })).body).toMatchObject({
            user_completions: 3,
          });

          // Lifting reveals everything at once.
          await admin.post(FREEZE, { freeze_at: null });
          expect(await t.board()).toEqual(liveBoard);
          expect(await listed(c)).toMatchObject({ user_completions: 3, points: live });
          expect((await t.visitor().get(GRAPH)).body.frozen_at).toBeNull();
        });
      }

      it('starts from FREEZE_AT', async () => {
        const frozen = await scenario({
          kind,
          env: { FREEZE_AT: '2026-01-10T11:00:00Z' },
          users: ['ann'],
          challenges: { c: {} },
        });
        expect((await frozen.visitor().get(SITE)).body.freezeAt).toBe('2026-01-10T11:00:00.000Z');
        await frozen.submit(frozen.users.ann, frozen.challenges.c);
        expect(await frozen.board()).toEqual([]);
        const root = await frozen.login('root', { admin: true });
        expect(await frozen.board(root)).toEqual([{ name: 'ann', points: 100 }]);
        await root.post(FREEZE, { freeze_at: null });
        expect(await frozen.board()).toEqual([{ name: 'ann', points: 100 }]);
      });
    });

    describe('graph and CTFtime feed', () => {
      it('graphs the top competitors as steps ending at their scores', async () => {
        const [a, b] = [
          await addChallenge(t, { difficulty: 'Easy' }),
          await addChallenge(t, { scoring: linear }),
        ];
        const ann = await t.login('ann');
        const bob = await t.login('bob');
        await t.solve(ann, a);
        await t.solve(ann, b);
        await t.solve(bob, b);
        const graph = (await t.visitor().get(GRAPH)).body;
        expect(graph.frozen_at).toBeNull();
        expect(graph.series).toEqual([
          {
            name: 'ann',
            points: [
              { time: expect.any(String), score: 100 },
              { time: expect.any(String), score: 500 },
            ],
          },
          { name: 'bob', points: [{ time: expect.any(String), score: 400 }] },
        ]);
        expect((await t.visitor().get(`${GRAPH}?top=1`)).body.series).toHaveLength(1);
        for (const top of ['-1', '0', 'abc', '51', '1.5']) {
          const res = await t.visitor().get(`${GRAPH}?top=${top}`);
          expect(res.status, top).toBe(400);
          expect(res.body.message).toContain('top');
        }
      });

      it('answers the CTFtime format with the leaderboard ranking', async () => {
        const a = await addChallenge(t, { name: 'Alpha', difficulty: 'Easy' });
        await addChallenge(t, { name: 'Beta', difficulty: 'Hard' });
        const ann = await t.login('ann');
        const bob = await t.login('bob');
        await makeTeam(t, 'Red', [bob.user!.id]);
        await t.solve(ann, a);
        await t.solve(bob, a);
        const feed = (await t.visitor().get(CTFTIME)).body;
        const time = (iso: string) => Math.floor(Date.parse(iso) / 1000);
        const solves = await t.ctx.database.db
          .selectFrom('solves')
          .select('created_at')
          .orderBy('id')
          .execute();
        expect(feed).toEqual({
          tasks: ['Alpha', 'Beta'],
          standings: [
            {
              pos: 1,
              team: 'ann',
              score: 100,
              taskStats: { Alpha: { points: 100, time: time(solves[0]!.created_at) } },
              lastAccept: time(solves[0]!.created_at),
            },
            {
              pos: 2,
              team: 'Red',
              score: 100,
              taskStats: { Alpha: { points: 100, time: time(solves[1]!.created_at) } },
              lastAccept: time(solves[1]!.created_at),
            },
          ],
        });
      });
    });

    describe('exports', () => {
      it('streams the scoreboard and the solves as CSV and JSON to admins only', async () => {
        const a = await addChallenge(t, { name: 'Alpha', difficulty: 'Easy' });
        const ann = await t.login('=cmd|x');
        const bob = await t.login('bob');
        await makeTeam(t, 'Red', [bob.user!.id]);
        await t.solve(ann, a);
        await t.solve(bob, a);
        for (const path of ['scoreboard.csv', 'solves.csv', 'scoreboard.json', 'solves.json']) {
          expect((await t.visitor().get(`/api/admin/export/${path}`)).status).toBe(401);
          expect((await bob.get(`/api/admin/export/${path}`)).status).toBe(403);
        }
        const csv = await admin.get('/api/admin/export/scoreboard.csv');
        expect(csv.status).toBe(200);
        expect(csv.headers['content-type']).toMatch(/^text\/csv/);
        expect(csv.headers['content-disposition']).toContain('scoreboard.csv');
        const lines = csv.text.trim().split('\n');
        expect(lines[0]).toBe('pos,kind,name,points,solves,last_solve_at');
        // A name a spreadsheet would run as a formula is defused.
        expect(lines[1]).toMatch(/^1,user,'=cmd\|x,100,1,/);
        expect(lines[2]).toMatch(/^2,team,Red,100,1,/);
        const solvesCsv = (await admin.get('/api/admin/export/solves.csv')).text.trim().split('\n');
        expect(solvesCsv[0]).toBe('time,user,team,challenge,points');
        expect(solvesCsv.slice(1).map((l) => l.split(',').slice(1))).toEqual([
          ["'=cmd|x", '', 'Alpha', '100'],
          ['bob', 'Red', 'Alpha', '100'],
        ]);
        expect((await admin.get('/api/admin/export/scoreboard.json')).body).toEqual([
          expect.objectContaining({ pos: 1, kind: 'user', name: '=cmd|x', points: 100, solves: 1 }),
          expect.objectContaining({ pos: 2, kind: 'team', name: 'Red', points: 100, solves: 1 }),
        ]);
        expect((await admin.get('/api/admin/export/solves.json')).body).toEqual([
          expect.objectContaining({ user: '=cmd|x', team: '', challenge: 'Alpha', points: 100 }),
          expect.objectContaining({ user: 'bob', team: 'Red', challenge: 'Alpha', points: 100 }),
        ]);
      });
    });
  });
}
