import { describe, expect, it } from 'vitest';
import { TestClock, TestClient, loginUser } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { twoProcesses } from '../../../test/two-processes.js';

/**
 * Two processes on one database, each with its own bus (the SQLite events file, or PostgreSQL
 * LISTEN/NOTIFY): a setting saved on one is served by the other within a second, and a timed
 * transition happens once.
 */
for (const kind of testDatabaseKinds()) {
  describe(`settings across two processes (${kind})`, () => {
    const clock = new TestClock(Date.parse('2031-01-01T00:00:00Z'));

    async function withAdmin() {
      const { a, b } = await twoProcesses(kind, clock);
      return { a, b, admin: await loginUser(a.ctx, a.app, 'root', { admin: true }) };
    }

    it('serves a setting saved on one process from the other within a second', async () => {
      const { b, admin } = await withAdmin();
      const reader = new TestClient(b.app, undefined, null);
      expect((await reader.get('/api/info/site')).body.name).toBe('Capture The Flag');
      const saved = await admin.post('/api/admin/settings', { name: 'Shared CTF', prizeText: '€500' });
      expect(saved.status, saved.text).toBe(200);
      await expect
        .poll(
          async () => {
            const info = await reader.get('/api/info/site');
            return `${info.body.name} ${info.body.prizeText}`;
          },
          { timeout: 1000 },
        )
        .toBe('Shared CTF €500');
    });

    it('opens the site once at the start however many processes read it then', async () => {
      const { a, b, admin } = await withAdmin();
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
