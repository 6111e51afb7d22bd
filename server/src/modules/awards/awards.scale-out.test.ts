import { afterEach, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, TEST_SECRET, TestClock, loginUser } from '../../../test/build-test-app.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';

/**
 * Two processes on one database, each with its own bus (the SQLite events file, or PostgreSQL
 * LISTEN/NOTIFY): an award given or deleted on one reaches the other's kept board, as a solve does
 * (the new award read from the feed, a deletion rebuilding).
 */
for (const kind of testDatabaseKinds()) {
  describe(`awards across two processes (${kind})`, () => {
    let database: TestDatabase;
    const apps: Awaited<ReturnType<typeof buildApp>>[] = [];
    const clock = new TestClock(Date.parse('2031-01-01T00:00:00Z'));

    afterEach(async () => {
      for (const { app } of apps.splice(0)) await app.close();
      await database?.drop();
    });

    /** The leaderboard process `app` answers, asked until it is `want` (5 s at most). */
    async function untilBoard(app: (typeof apps)[0]['app'], want: unknown): Promise<unknown> {
      const started = Date.now();
      let board: unknown;
      while (Date.now() - started < 5000) {
        const res = await app.inject({ method: 'GET', url: '/api/info/leaderboard' });
        board = JSON.parse(res.body);
        if (JSON.stringify(board) === JSON.stringify(want)) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      return board;
    }

    it('an award given on one process ranks on the other, and its deletion takes it off', async () => {
      database = await createTestDatabase(kind, { empty: true });
      const config = loadConfig({
        DATA_DIR: database.dataDir,
        PUBLIC_URL: TEST_ORIGIN,
        SESSION_SECRET: TEST_SECRET,
        LOG_LEVEL: 'silent',
        ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
      });
      for (let i = 0; i < 2; i++) {
        const built = await buildApp(config, { clock, logger: false });
        await built.app.ready();
        apps.push(built);
      }
      const [a, b] = apps as [(typeof apps)[0], (typeof apps)[0]];
      const root = await loginUser(a.ctx, a.app, 'root', { admin: true });
      const ann = await loginUser(a.ctx, a.app, 'ann');
      // Process b builds and keeps its board first.
      expect(await untilBoard(b.app, [])).toEqual([]);
      const given = await root.post('/api/admin/awards', {
        user_id: ann.user!.id,
        points: 300,
        reason: 'Quiz',
      });
      expect(given.status).toBe(200);
      expect(await untilBoard(b.app, [{ name: 'ann', points: 300 }])).toEqual([{ name: 'ann', points: 300 }]);
      await root.post('/api/admin/awards', { user_id: ann.user!.id, points: -100, reason: 'Penalty' });
      expect(await untilBoard(b.app, [{ name: 'ann', points: 200 }])).toEqual([{ name: 'ann', points: 200 }]);
      const deleted = await root.post('/api/admin/awards/delete', { award_id: given.body._id });
      expect(deleted.status).toBe(200);
      expect(await untilBoard(b.app, [])).toEqual([]);
    });
  });
}
