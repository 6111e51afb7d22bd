import { LIVE_EVENT_COALESCE_MS, MESSAGES } from '@ctf/contract';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, makeTeam, openSite, type SeededChallenge } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { FakeDiscord } from '../../../test/fake-discord.js';
import { openEventStream, type SseClient } from '../../../test/sse-client.js';

/**
 * The freeze leaks of CTFd's history (issue 16), each checked with static and dynamic scoring,
 * for a first blood scored after the freeze: who solved what must not reach the public through
 * the challenge list or page (solve counts, first blood, dynamic values: CTFd #986, #1092, #2320),
 * the board, graph or CTFtime feed, the live event stream (first-blood and "changed" events) or
 * Discord, until the freeze is lifted; the solver still sees their own solve (CTFd #988) and
 * admins see everything live. The lift announces the held first blood once.
 */

const LIST = '/api/ctf/challenges';
const DETAIL = '/api/ctf/challenge';
const FREEZE = '/api/admin/scoreboard/freeze';
const PUBLIC_VIEWS = ['/api/info/leaderboard', '/api/info/scoreboard/graph', '/api/ctftime'];

const linear = { type: 'dynamic', function: 'linear', initial: 500, minimum: 100, decay: 100 } as const;
const until = (check: () => void | Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 20 });

const fake = new FakeDiscord();
beforeAll(() => fake.start());
afterAll(() => fake.stop());

for (const kind of testDatabaseKinds()) {
  for (const scoring of ['static', 'dynamic'] as const) {
    describe(`a first blood after the freeze, ${scoring} scoring, on ${kind}`, () => {
      let t: TestApp;
      let admin: TestClient;
      let stream: SseClient;
      beforeEach(async () => {
        fake.reset();
        t = await buildTestApp(kind, { DISCORD_WEBHOOK_URL: fake.url, WEBHOOK_EVENTS: 'first-blood' });
        await t.app.listen({ port: 0, host: '127.0.0.1' });
        stream = await openEventStream(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`);
        await openSite(t);
        admin = await t.login('root', { admin: true });
      });
      afterEach(async () => {
        stream.close();
        await t.close();
      });

      async function solve(client: TestClient, c: SeededChallenge): Promise<void> {
        t.clock.advance(60_000);
        const res = await client.post('/api/ctf/submit-flag', { flag: c.flag, challenge_id: c.id });
        expect(res.body.message).toBe(MESSAGES.correctFlag);
      }
      const detail = async (client: TestClient, c: SeededChallenge) =>
        (await client.post(DETAIL, { challenge_id: c.id })).body as {
          points: number;
          user_completions: number;
          first_blood: string | null;
        };
      const outbox = async () =>
        Number(
          (
            await t.ctx.database.db
              .selectFrom('webhook_outbox')
              .select((e) => e.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      /** Posts an announcement once any "changed" event of a change at `since` has been sent. */
      async function quietMarker(title: string, since: number): Promise<void> {
        await until(() => expect(Date.now()).toBeGreaterThan(since + LIVE_EVENT_COALESCE_MS + 100));
        await admin.post('/api/admin/announcements/create', { title, body: 'x' });
        await until(() =>
          expect(stream.events.filter((e) => e.event === 'announcement').map((e) => e.data)).toContainEqual(
            expect.objectContaining({ title }),
          ),
        );
      }
      const publicViews = async (client: TestClient = t.visitor()) =>
        Promise.all([LIST, ...PUBLIC_VIEWS].map(async (url) => (await client.get(url)).text));

      it('stays hidden from the public until the lift, which announces it once', async () => {
        const early = await addChallenge(t, { name: 'Early', difficulty: 'Easy' });
        const late = await addChallenge(t, {
          name: 'Late',
          difficulty: 'Medium',
          scoring: scoring === 'dynamic' ? linear : { type: 'static' },
        });
        const [ann, bob, cat, dan] = [
          await t.login('ann'),
          await t.login('bob'),
          await t.login('cat'),
          await t.login('dan'),
        ];
        await makeTeam(t, 'Blue', [cat.user!.id, dan.user!.id]);
        // Before the freeze a first blood is public at once: stream, Discord, list.
        await solve(ann, early);
        await until(() =>
          expect(stream.events.filter((e) => e.event === 'first-blood').map((e) => e.data)).toEqual([
            { challenge: 'Early', competitor: 'ann' },
          ]),
        );
        await until(() => expect(fake.delivered).toHaveLength(1));
        const lastChangeAt = Date.now();

        await admin.post(FREEZE, { freeze_at: t.clock.now().toISOString() });
        t.clock.advance(1000);
        // Every "changed" event of the changes before the freeze has been sent (a marker posted
        // once the coalescing window is over arrives after them).
        await quietMarker('Before', lastChangeAt);
        const seenBefore = stream.events.length;
        const frozen = await publicViews();
        const lateBefore = await detail(bob, late);
        expect(lateBefore).toMatchObject({ user_completions: 0, first_blood: null });

        // After the freeze: Blue draws first blood on Late, bob solves it too.
        await solve(cat, late);
        await solve(bob, late);
        const lastSolveAt = Date.now();

        // The list, the page (solve count, first blood, value), the board, graph and feed: as of the freeze.
        expect(await publicViews()).toEqual(frozen);
        expect(await publicViews(bob)).toEqual(frozen);
        expect(await detail(bob, late)).toEqual(lateBefore);
        expect(await detail(cat, late)).toEqual(lateBefore);
        const listed = (
          (await t.visitor().get(LIST)).body as { name: string; first_blood: string | null }[]
        ).find((c) => c.name === 'Late');
        expect(listed?.first_blood).toBeNull();
        // The solvers see their own solves (and Blue its team's, at the frozen value).
        expect((await cat.post('/api/info/get-completions', {})).body.userCompletions).toEqual([
          expect.objectContaining({ id: String(late.id) }),
        ]);
        expect((await dan.get('/api/team/info')).body.completions).toEqual([
          expect.objectContaining({ id: String(late.id), points: lateBefore.points }),
        ]);
        // Nothing went to Discord's outbox.
        expect(await outbox()).toBe(0);
        // Admins see it all live.
        expect(await detail(admin, late)).toMatchObject({ user_completions: 2, first_blood: 'Blue' });
        expect((await admin.get('/api/admin/ctf/get_solvers')).body.first_bloods).toEqual({
          Early: 'ann',
          Late: 'cat',
        });

        // The stream carried nothing: no first blood and no "changed" event (a marker announcement
        // posted once any coalesced event would have been sent arrives alone).
        await quietMarker('After', lastSolveAt);
        expect(stream.events.slice(seenBefore).map((e) => e.event)).toEqual(['announcement']);
        expect(fake.delivered).toHaveLength(1);

        // The lift reveals everything and announces the held first blood, once.
        await admin.post(FREEZE, { freeze_at: null });
        await until(() =>
          expect(stream.events.filter((e) => e.event === 'first-blood').map((e) => e.data)).toEqual([
            { challenge: 'Early', competitor: 'ann' },
            { challenge: 'Late', competitor: 'Blue' },
          ]),
        );
        await until(() =>
          expect(fake.delivered.map((d) => d.content)).toEqual([
            '🩸 First blood on **Early** by **ann**',
            '🩸 First blood on **Late** by **Blue**',
          ]),
        );
        expect(await detail(bob, late)).toMatchObject({
          user_completions: 2,
          first_blood: 'Blue',
          points: scoring === 'dynamic' ? 400 : 200,
        });
        // A second lift (or a freeze set again) announces nothing more.
        await admin.post(FREEZE, { freeze_at: null });
        await admin.post(FREEZE, { freeze_at: new Date(t.clock.now().getTime() + 60_000).toISOString() });
        expect(await outbox()).toBe(0);
        const held = await t.ctx.database.db
          .selectFrom('first_blood_notices')
          .select(['challenge_id', 'held'])
          .orderBy('challenge_id')
          .execute();
        expect(held).toEqual([
          { challenge_id: early.id, held: 0 },
          { challenge_id: late.id, held: 0 },
        ]);
        expect(stream.events.filter((e) => e.event === 'first-blood')).toHaveLength(2);
      });

      it('a freeze moved past the first blood announces it; one moved earlier keeps it held', async () => {
        const late = await addChallenge(t, {
          name: 'Late',
          scoring: scoring === 'dynamic' ? linear : { type: 'static' },
        });
        const ann = await t.login('ann');
        const freezeAt = t.clock.now().getTime() + 1000;
        await admin.post(FREEZE, { freeze_at: new Date(freezeAt).toISOString() });
        await solve(ann, late);
        expect((await t.visitor().get(LIST)).body[0]).toMatchObject({
          first_blood: null,
          user_completions: 0,
        });
        // Earlier still: the solve stays after it, held.
        await admin.post(FREEZE, { freeze_at: new Date(freezeAt - 30_000).toISOString() });
        expect(await outbox()).toBe(0);
        // Later than the solve (and than now): the public board includes it, so it is announced.
        await admin.post(FREEZE, { freeze_at: new Date(t.clock.now().getTime() + 60_000).toISOString() });
        expect((await t.visitor().get(LIST)).body[0]).toMatchObject({
          first_blood: 'ann',
          user_completions: 1,
        });
        await until(() =>
          expect(fake.delivered.map((d) => d.content)).toEqual(['🩸 First blood on **Late** by **ann**']),
        );
        await until(() =>
          expect(stream.events.filter((e) => e.event === 'first-blood').map((e) => e.data)).toEqual([
            { challenge: 'Late', competitor: 'ann' },
          ]),
        );
      });
    });
  }
}
