import { describe, expect, it } from 'vitest';
import { TestClock, loginUser } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { twoProcesses, type Process } from '../../../test/two-processes.js';

/**
 * Two processes on one database, each with its own bus (the SQLite events file, or PostgreSQL
 * LISTEN/NOTIFY): an award given or deleted on one reaches the other's kept board, as a solve does
 * (the new award read from the feed, a deletion rebuilding).
 */
for (const kind of testDatabaseKinds()) {
  describe(`awards across two processes (${kind})`, () => {
    const clock = new TestClock(Date.parse('2031-01-01T00:00:00Z'));

    /** The leaderboard process `app` answers (what a change on the other reaches a moment later). */
    const board = async (app: Process['app']) =>
      JSON.parse((await app.inject({ method: 'GET', url: '/api/info/leaderboard' })).body) as unknown;

    it('an award given on one process ranks on the other, and its deletion takes it off', async () => {
      const { a, b } = await twoProcesses(kind, clock);
      const root = await loginUser(a.ctx, a.app, 'root', { admin: true });
      const ann = await loginUser(a.ctx, a.app, 'ann');
      // Process b builds and keeps its board first.
      await expect.poll(() => board(b.app), { timeout: 5000 }).toEqual([]);
      const given = await root.post('/api/admin/awards', {
        user_id: ann.user!.id,
        points: 300,
        reason: 'Quiz',
      });
      expect(given.status).toBe(200);
      await expect.poll(() => board(b.app), { timeout: 5000 }).toEqual([{ name: 'ann', points: 300 }]);
      await root.post('/api/admin/awards', { user_id: ann.user!.id, points: -100, reason: 'Penalty' });
      await expect.poll(() => board(b.app), { timeout: 5000 }).toEqual([{ name: 'ann', points: 200 }]);
      const deleted = await root.post('/api/admin/awards/delete', { award_id: given.body._id });
      expect(deleted.status).toBe(200);
      await expect.poll(() => board(b.app), { timeout: 5000 }).toEqual([]);
    });
  });
}
