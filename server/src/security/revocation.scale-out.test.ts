import { describe, expect, it } from 'vitest';
import { TestClient, TestClock, loginUser } from '../../test/build-test-app.js';
import { testDatabaseKinds } from '../../test/databases.js';
import { expectOnOtherProcess, twoProcesses, type Process } from '../../test/two-processes.js';

/**
 * What a process keeps in memory (sessions, the board's answers) never outlives a change made on
 * another process: a logout, a ban and a freeze made on process a hold on process b, which had
 * kept what they end (tokens: auth/api-tokens.scale-out.test.ts). On SQLite b reads the events
 * file at the start of every request, so the very next request holds them; PostgreSQL pushes the
 * news (LISTEN / NOTIFY), which arrives within milliseconds (expectOnOtherProcess).
 */
for (const kind of testDatabaseKinds()) {
  describe(`a change on one process holds on the other at once (${kind})`, () => {
    const clock = new TestClock(Date.parse('2031-01-01T00:00:00Z'));

    /** The same signed-in player (the same cookie) on process b. */
    const on = (b: Process, client: TestClient) => new TestClient(b.app, client.cookie, client.user);

    it('a logout and a ban end the session the other process kept', async () => {
      const { a, b } = await twoProcesses(kind, clock);
      const root = await loginUser(a.ctx, a.app, 'root', { admin: true });

      const ann = await loginUser(a.ctx, a.app, 'ann');
      const annOnB = on(b, ann);
      // b keeps the session after these.
      expect((await annOnB.get('/api/authenticated')).status).toBe(200);
      expect((await annOnB.get('/api/authenticated')).status).toBe(200);
      expect((await ann.get('/api/auth/logout')).status).toBe(200);
      await expectOnOtherProcess(kind, async () => (await annOnB.get('/api/authenticated')).status, 401);

      const bob = await loginUser(a.ctx, a.app, 'bob');
      const bobOnB = on(b, bob);
      expect((await bobOnB.get('/api/authenticated')).status).toBe(200);
      expect((await bobOnB.get('/api/authenticated')).status).toBe(200);
      const banned = await root.post('/api/admin/moderate', {
        target: 'user',
        name: 'bob',
        action: 'ban',
        reason: 'abuse',
      });
      expect(banned.status, banned.text).toBe(200);
      await expectOnOtherProcess(kind, async () => (await bobOnB.get('/api/authenticated')).status, 401);
    });

    it('a freeze set on one process is the board the other answers next', async () => {
      const { a, b } = await twoProcesses(kind, clock);
      const root = await loginUser(a.ctx, a.app, 'root', { admin: true });
      const visitor = new TestClient(b.app, undefined, null);
      const frozenAt = async () =>
        (await visitor.get('/api/info/scoreboard/graph')).body.frozen_at as string | null;
      // b keeps the unfrozen board's graph after this.
      expect(await frozenAt()).toBeNull();
      expect(await frozenAt()).toBeNull();
      const at = new Date(clock.now().getTime() - 60_000).toISOString();
      const frozen = await root.post('/api/admin/scoreboard/freeze', { freeze_at: at });
      expect(frozen.status, frozen.text).toBe(200);
      expect(frozen.body.freeze_at).not.toBeNull();
      await expectOnOtherProcess(kind, frozenAt, frozen.body.freeze_at);
    });
  });
}
