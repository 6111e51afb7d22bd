import { afterEach, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, TEST_SECRET, TestClock, TestClient, loginUser } from '../../../test/build-test-app.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';

/**
 * Two processes on one database, each with its own bus (the SQLite events file, or PostgreSQL
 * LISTEN/NOTIFY): a setting saved on one is served by the other within a second, and a timed
 * transition happens once.
 */
for (const kind of testDatabaseKinds()) {
  describe(`settings across two processes (${kind})`, () => {
    let database: TestDatabase;
    const apps: Awaited<ReturnType<typeof buildApp>>[] = [];
    const clock = new TestClock(Date.parse('2031-01-01T00:00:00Z'));

    async function twoProcesses() {
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
      return { a, b, admin: await loginUser(a.ctx, a.app, 'root', { admin: true }) };
    }

    afterEach(async () => {
      for (const { app } of apps.splice(0)) await app.close();
      await database?.drop();
    });

    it('serves a setting saved on one process from the other within a second', async () => {
      const { b, admin } = await twoProcesses();
      const reader = new TestClient(b.app, undefined, null);
      expect((await reader.get('/api/info/site')).body.name).toBe('Capture The Flag');
      const saved = await admin.post('/api/admin/settings', { name: 'Shared CTF', prizeText: '€500' });
      expect(saved.status, saved.text).toBe(200);
      const started = Date.now();
      let seen = '';
      while (Date.now() - started < 1000) {
        const info = await reader.get('/api/info/site');
        seen = `${info.body.name} ${info.body.prizeText}`;
        if (seen === 'Shared CTF €500') break;
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(seen).toBe('Shared CTF €500');
    });

    it('opens the site once at the start however many processes read it then', async () => {
      const { a, b, admin } = await twoProcesses();
      await admin.post('/api/admin/settings', {
        eventStart: '2031-01-02T00:00:00Z',
        eventEnd: '2031-01-03T00:00:00Z',
        autoOpen: true,
      });
      clock.set('2031-01-02T00:00:00Z');
      const readers = [a, b].map(({ app }) => new TestClient(app, undefined, null));
      const burst = (reader: TestClient) => Array.from({ length: 5 }, () => reader.get('/api/info/site'));
      // NOTE: two SQLite apps in one thread cannot both write at once (the second's busy wait
      // blocks the thread the first needs to commit), so on SQLite each process takes its burst in
      // turn, both having the transition due; real processes (e2e/scale-out) have no such limit.
      const answers =
        kind === 'postgres'
          ? await Promise.all(readers.flatMap(burst))
          : [...(await Promise.all(burst(readers[0]!))), ...(await Promise.all(burst(readers[1]!)))];
      expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
      const rows = await a.ctx.database.db.selectFrom('site_transitions').select(['key', 'action']).execute();
      expect(rows).toEqual([{ key: 'open@2031-01-02T00:00:00.000Z', action: 'open' }]);
      for (const reader of readers) expect((await reader.get('/api/info/site')).body.activated).toBe(true);
      clock.set('2031-01-01T00:00:00Z');
    });
  });
}
