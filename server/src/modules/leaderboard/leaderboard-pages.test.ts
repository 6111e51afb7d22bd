import { LEADERBOARD_PAGE, MESSAGES } from '@ctf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../../../test/databases.js';
import { startedEvent } from '../../../test/fixtures.js';
import { BoardPages, SLICES_PER_VERSION } from './leaderboard-pages.js';
import { getScoreView } from '../scoreboard/scoreboard.service.js';
import { getLeaderboard, getLeaderboardPage } from './leaderboard.service.js';

const BOARD = '/api/info/leaderboard';
const TOTAL = LEADERBOARD_PAGE.totalHeader.toLowerCase();
const RANK = LEADERBOARD_PAGE.callerRankHeader.toLowerCase();

type Row = { name: string; points: number; rank: number };

for (const kind of testDatabaseKinds()) {
  describe(`leaderboard pages on ${kind}`, () => {
    // Eight competitors: a team of two (Red Team) and six teamless players, distinct points.
    const start = () =>
      startedEvent({
        kind,
        admins: ['root'],
        users: ['ann', 'bob', 'Cat', 'dan', 'eve', 'fay', 'gus', 'hal', 'ivy'], // ivy never scores
        teams: { 'Red Team': ['ann', 'bob'] },
        challenges: { simple: 'Simple', easy: 'Easy', medium: 'Medium', hard: 'Hard', extreme: 'Extreme' },
        solves: [
          ['ann', 'extreme'], // Red Team 400 + bob's 300 = 700
          ['bob', 'hard'],
          ['Cat', 'extreme'], // 600
          ['Cat', 'medium'],
          ['dan', 'hard'], // 400
          ['dan', 'easy'],
          ['eve', 'hard'], // 300
          ['fay', 'medium'], // 200
          ['gus', 'easy'], // 100
          ['hal', 'simple'], // 50
          ['root', 'extreme'], // an admin: never on the board
          ['root', 'hard'],
          ['root', 'medium'],
        ],
      });
    let t: Awaited<ReturnType<typeof start>>;
    /** The whole board, as the unpaged answer lists it. */
    let whole: { name: string; points: number }[];

    beforeAll(async () => {
      t = await start();
      whole = (await t.visitor().get(BOARD)).body;
    });
    afterAll(async () => {
      await t.close();
    });

    const names = (rows: Row[]) => rows.map((r) => r.name);

    it('answers the whole board, byte for byte as before, without parameters (unknown ones ignored)', async () => {
      expect(whole).toEqual([
        { name: 'Red Team', points: 700 },
        { name: 'Cat', points: 600 },
        { name: 'dan', points: 400 },
        { name: 'eve', points: 300 },
        { name: 'fay', points: 200 },
        { name: 'gus', points: 100 },
        { name: 'hal', points: 50 },
      ]);
      const board = await getLeaderboard(t.ctx);
      for (const client of [t.visitor(), t.users.ann]) {
        for (const url of [BOARD, `${BOARD}?`, `${BOARD}?division=x&_=1`]) {
          const res = await client.get(url);
          expect(res.status, url).toBe(200);
          expect(res.text, url).toBe(JSON.stringify(board.entries));
          expect(res.headers.etag, url).toBe(board.answer.etag());
          expect(res.headers['cache-control'], url).toBe('no-cache');
          expect(res.headers[TOTAL], url).toBeUndefined();
          expect(res.headers[RANK], url).toBeUndefined();
        }
      }
    });

    it('answers a slice with its ranks, the total and (for a caller on the board) their rank', async () => {
      const res = await t.users.eve.get(`${BOARD}?limit=3&offset=2`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { name: 'dan', points: 400, rank: 3 },
        { name: 'eve', points: 300, rank: 4 },
        { name: 'fay', points: 200, rank: 5 },
      ]);
      expect(res.headers[TOTAL]).toBe('7');
      expect(res.headers[RANK]).toBe('4');
      expect(res.headers['cache-control']).toBe('private, no-cache');
      // The default page, past the end, a team member's rank is the team's, visitors and admins have none.
      const first = await t.users.bob.get(`${BOARD}?offset=0`);
      expect(first.body).toHaveLength(7);
      expect(first.headers[RANK]).toBe('1');
      expect((await t.visitor().get(`${BOARD}?limit=5&offset=7`)).body).toEqual([]);
      for (const who of [t.visitor(), t.users.root, t.users.ivy]) {
        const page = await who.get(`${BOARD}?limit=1`);
        expect(page.body).toEqual([{ name: 'Red Team', points: 700, rank: 1 }]);
        expect(page.headers[TOTAL]).toBe('7');
        expect(page.headers[RANK]).toBeUndefined();
      }
    });

    it('answers the slice around the caller, kept within the board', async () => {
      const around = async (who: keyof typeof t.users, limit: number) => {
        const res = await t.users[who].get(`${BOARD}?around=me&limit=${limit}`);
        expect(res.status).toBe(200);
        return { names: names(res.body), rank: res.headers[RANK], total: res.headers[TOTAL] };
      };
      expect(await around('eve', 3)).toEqual({ names: ['dan', 'eve', 'fay'], rank: '4', total: '7' });
      expect(await around('eve', 1)).toEqual({ names: ['eve'], rank: '4', total: '7' });
      expect(await around('eve', 4)).toEqual({ names: ['Cat', 'dan', 'eve', 'fay'], rank: '4', total: '7' });
      expect(await around('ann', 3)).toEqual({ names: ['Red Team', 'Cat', 'dan'], rank: '1', total: '7' });
      expect(await around('hal', 3)).toEqual({ names: ['fay', 'gus', 'hal'], rank: '7', total: '7' });
      expect((await around('hal', 100)).names).toEqual(whole.map((e) => e.name));
      // Off the board: the top page, no rank.
      expect(await around('ivy', 2)).toEqual({ names: ['Red Team', 'Cat'], rank: undefined, total: '7' });
      // A visitor has no "me".
      const visitor = await t.visitor().get(`${BOARD}?around=me`);
      expect(visitor.status).toBe(401);
      expect(visitor.body.message).toBe(MESSAGES.unauthorized);
    });

    it('searches names over the whole board, ignoring case, with ranks, paged', async () => {
      const search = async (q: string, extra = '') => {
        const res = await t.visitor().get(`${BOARD}?q=${encodeURIComponent(q)}${extra}`);
        expect(res.status).toBe(200);
        return { rows: res.body as Row[], total: res.headers[TOTAL] };
      };
      expect(await search('A')).toEqual({
        rows: [
          { name: 'Red Team', points: 700, rank: 1 },
          { name: 'Cat', points: 600, rank: 2 },
          { name: 'dan', points: 400, rank: 3 },
          { name: 'fay', points: 200, rank: 5 },
          { name: 'hal', points: 50, rank: 7 },
        ],
        total: '5',
      });
      expect(await search('a', '&limit=2&offset=2')).toEqual({
        rows: [
          { name: 'dan', points: 400, rank: 3 },
          { name: 'fay', points: 200, rank: 5 },
        ],
        total: '5',
      });
      expect(await search('TEAM')).toEqual({
        rows: [{ name: 'Red Team', points: 700, rank: 1 }],
        total: '1',
      });
      expect(await search('nobody')).toEqual({ rows: [], total: '0' });
      expect((await search('')).total).toBe('7');
      expect((await search('x'.repeat(LEADERBOARD_PAGE.maxSearchLength))).total).toBe('0');
    });

    it('refuses bad parameters with 400, naming the parameter', async () => {
      const cases: [string, string][] = [
        ['limit=0', 'limit'],
        ['limit=100000', 'limit'],
        ['limit=501', 'limit'],
        ['limit=abc', 'limit'],
        ['limit=1.5', 'limit'],
        ['limit=', 'limit'],
        ['limit=1&limit=2', 'limit'],
        ['offset=-1', 'offset'],
        ['offset=1e3', 'offset'],
        ['around=you', 'around'],
        ['around=me&offset=3', 'offset'],
        ['around=me&q=a', 'q'],
        [`q=${'x'.repeat(LEADERBOARD_PAGE.maxSearchLength + 1)}`, 'q'],
      ];
      for (const [query, parameter] of cases) {
        const res = await t.users.eve.get(`${BOARD}?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.code, query).toBe('bad_input');
        expect(res.body.message, query).toMatch(new RegExp(`^Invalid ${parameter}: `));
      }
      expect((await t.visitor().get(`${BOARD}?limit=0`)).body.message).toBe(
        'Invalid limit: must be a whole number from 1 to 500',
      );
    });

    it('revalidates a page with its ETag (the caller header rides on the 304) and shows a solve after', async () => {
      const eve = t.users.eve;
      const first = await eve.get(`${BOARD}?limit=2&offset=3`);
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(etag).not.toBe((await getLeaderboard(t.ctx)).answer.etag());
      const same = await eve.get(`${BOARD}?limit=2&offset=3`, { 'if-none-match': etag });
      expect(same.status).toBe(304);
      expect(same.text).toBe('');
      expect(same.headers[RANK]).toBe('4');
      expect(same.headers[TOTAL]).toBe('7');
      // Another caller asking the same page gets the same bytes: one serialisation per version.
      const fromOther = await t.users.hal.get(`${BOARD}?limit=2&offset=3`, { 'if-none-match': etag });
      expect(fromOther.status).toBe(304);
      expect(fromOther.headers[RANK]).toBe('7');
      // ivy scores 400 and lands third (her solve is later than dan's): eve's page changes.
      await t.solve(t.users.ivy, t.challenges.hard);
      await t.solve(t.users.ivy, t.challenges.easy);
      const after = await eve.get(`${BOARD}?limit=2&offset=3`, { 'if-none-match': etag });
      expect(after.status).toBe(200);
      expect(after.body).toEqual([
        { name: 'ivy', points: 400, rank: 4 },
        { name: 'eve', points: 300, rank: 5 },
      ]);
      expect(after.headers[RANK]).toBe('5');
      expect(after.headers[TOTAL]).toBe('8');
      whole = (await t.visitor().get(BOARD)).body;
      expect(whole).toHaveLength(8);
    });

    it('compresses a large page like the whole board', async () => {
      const res = await t.visitor().get(`${BOARD}?limit=500`, { 'accept-encoding': 'br' });
      // Eight rows are under the compression threshold: sent as they are.
      expect(res.headers['content-encoding']).toBeUndefined();
      const pages = new BoardPages(
        Array.from({ length: 200 }, (_, i) => ({
          kind: 'user' as const,
          id: i + 1,
          name: `player-${i}`,
          points: 1000 - i,
        })),
        { placeOf: () => -1 },
      );
      const slice = pages.slice(0, 100, '');
      expect(slice.answer.codingFor('br, gzip')).toBe('br');
      expect((slice.answer.body('br') as Buffer).length).toBeLessThan(slice.answer.json.length / 3);
    });

    it('serves every caller one serialisation per slice and board version, and bounds what it keeps', async () => {
      // ann as she is now (on Red Team), not as she logged in.
      const ann = await t.ctx.database.db
        .selectFrom('users')
        .select(['id', 'team_id', 'is_admin'])
        .where('username', '=', 'ann')
        .executeTakeFirstOrThrow();
      const a = await getLeaderboardPage(t.ctx, { limit: 2, offset: 1 }, ann);
      const b = await getLeaderboardPage(t.ctx, { limit: 2, offset: 1 }, null);
      expect(a.answer).toBe(b.answer);
      expect(a.callerRank).toBe(1);
      expect(b.callerRank).toBeNull();
      const pages = (await getLeaderboard(t.ctx)).pages;
      const first = pages.slice(0, 1, 'q-0');
      for (let i = 1; i <= SLICES_PER_VERSION; i++) pages.slice(0, 1, `q-${i}`);
      // The oldest was dropped to make room: built again, a new object.
      expect(pages.slice(0, 1, 'q-0')).not.toBe(first);
    });

    it('serves a page again, same bytes and ETag, after solves that leave its rows where they were', async () => {
      const top = `${BOARD}?limit=2&offset=0`;
      const first = await t.users.hal.get(top);
      const etag = String(first.headers.etag);
      const before = await getLeaderboardPage(t.ctx, { limit: 2, offset: 0 }, null);
      // hal's solve moves hal (and the board's version), below the top two: the same page.
      const version = (await getScoreView(t.ctx, { live: false })).board.version;
      await t.solve(t.users.hal, t.challenges.easy);
      expect((await getScoreView(t.ctx, { live: false })).board.version).toBeGreaterThan(version);
      const after = await getLeaderboardPage(t.ctx, { limit: 2, offset: 0 }, null);
      expect(after.answer).toBe(before.answer);
      const again = await t.users.hal.get(top, { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.headers[RANK]).toBe('7');
      // A page whose rows moved is made again: hal (150) passed gus (100).
      expect((await t.visitor().get(`${BOARD}?limit=2&offset=6`)).body).toEqual([
        { name: 'hal', points: 150, rank: 7 },
        { name: 'gus', points: 100, rank: 8 },
      ]);
      // A solve that changes the top's points, or brings a new row into it, changes the page.
      await t.solve(t.users.fay, t.challenges.extreme);
      await t.solve(t.users.fay, t.challenges.hard);
      const changed = await t.users.hal.get(top, { 'if-none-match': etag });
      expect(changed.status).toBe(200);
      expect(changed.body).toEqual([
        { name: 'fay', points: 900, rank: 1 },
        { name: 'Red Team', points: 700, rank: 2 },
      ]);
      // The same rows in the same places, one with new points (a tie: fay reached 900 first).
      await t.solve(t.users.ann, t.challenges.medium);
      expect((await t.visitor().get(top)).body).toEqual([
        { name: 'fay', points: 900, rank: 1 },
        { name: 'Red Team', points: 900, rank: 2 },
      ]);
    });
  });
}

describe("a caller's rank on one board version", () => {
  it('is looked up once per competitor (a binary search), their team first, then themselves', () => {
    const asked: string[] = [];
    const places = new Map([
      ['team:7', 0],
      ['user:3', 4],
    ]);
    const pages = new BoardPages(
      [
        { kind: 'team' as const, id: 7, name: 'Red', points: 900 },
        { kind: 'user' as const, id: 3, name: 'cat', points: 100 },
      ],
      {
        placeOf: (kind, id) => {
          asked.push(`${kind}:${id}`);
          return places.get(`${kind}:${id}`) ?? -1;
        },
      },
    );
    for (let i = 0; i < 3; i++) {
      expect(pages.rankOf({ id: 1, team_id: 7 })).toBe(1);
      expect(pages.rankOf({ id: 3, team_id: null })).toBe(5);
      // A team off the board: its member counts alone (here, nowhere).
      expect(pages.rankOf({ id: 9, team_id: 8 })).toBeNull();
    }
    // A team's id and a user's with the same number are different competitors.
    expect(pages.rankOf({ id: 7, team_id: null })).toBeNull();
    expect(asked).toEqual(['team:7', 'user:3', 'team:8', 'user:9', 'user:7']);
  });
});
