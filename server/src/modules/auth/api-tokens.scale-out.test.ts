import { describe, expect, it } from 'vitest';
import { TestClock, loginUser } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { expectOnOtherProcess, twoProcesses, type Process } from '../../../test/two-processes.js';

/**
 * Two processes on one database, each with its own bus (the SQLite events file, or PostgreSQL
 * LISTEN/NOTIFY): a token kept in memory by one process stops there as soon as the other revokes
 * it or bans its user.
 */
for (const kind of testDatabaseKinds()) {
  describe(`API tokens across two processes (${kind})`, () => {
    const clock = new TestClock(Date.parse('2031-01-01T00:00:00Z'));

    /** The status process `app` answers to the token (what a change on the other reaches a moment later). */
    const status = async (app: Process['app'], token: string) =>
      (
        await app.inject({
          method: 'GET',
          url: '/api/authenticated',
          headers: { authorization: `Bearer ${token}` },
        })
      ).statusCode;

    it('a token revoked on one process is refused by the other, which had kept it', async () => {
      const { a, b } = await twoProcesses(kind, clock);
      const ann = await loginUser(a.ctx, a.app, 'ann');
      const created = await ann.post('/api/user/tokens', { name: 'bot' });
      const token = created.body.token as string;
      // Process b keeps the token after its first use.
      await expect.poll(() => status(b.app, token), { timeout: 5000 }).toBe(200);
      await expect.poll(() => status(b.app, token), { timeout: 5000 }).toBe(200);
      const revoked = await ann.post('/api/user/tokens/delete', { token_id: created.body._id });
      expect(revoked.status).toBe(200);
      await expectOnOtherProcess(kind, () => status(b.app, token), 401);
      await expect.poll(() => status(a.app, token), { timeout: 5000 }).toBe(401);
    });

    it('a ban on one process stops the user’s token on the other', async () => {
      const { a, b } = await twoProcesses(kind, clock);
      const root = await loginUser(a.ctx, a.app, 'root', { admin: true });
      const ann = await loginUser(a.ctx, a.app, 'ann');
      const token = (await ann.post('/api/user/tokens', { name: 'bot' })).body.token as string;
      await expect.poll(() => status(b.app, token), { timeout: 5000 }).toBe(200);
      const banned = await root.post('/api/admin/moderate', {
        target: 'user',
        name: 'ann',
        action: 'ban',
        reason: 'abuse',
      });
      expect(banned.status, banned.text).toBe(200);
      await expectOnOtherProcess(kind, () => status(b.app, token), 401);
    });
  });
}
