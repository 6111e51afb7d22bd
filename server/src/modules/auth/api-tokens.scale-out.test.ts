import { afterEach, describe, expect, it } from 'vitest';
import { TEST_ORIGIN, TEST_SECRET, TestClock, loginUser } from '../../../test/build-test-app.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';

/**
 * Two processes on one database, each with its own bus (the SQLite events file, or PostgreSQL
 * LISTEN/NOTIFY): a token kept in memory by one process stops there as soon as the other revokes
 * it or bans its user.
 */
for (const kind of testDatabaseKinds()) {
  describe(`API tokens across two processes (${kind})`, () => {
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
      return { a, b };
    }

    afterEach(async () => {
      for (const { app } of apps.splice(0)) await app.close();
      await database?.drop();
    });

    /** The status process `app` answers to the token, asked until it is `want` (5 s at most). */
    async function untilStatus(app: (typeof apps)[0]['app'], token: string, want: number): Promise<number> {
      const started = Date.now();
      let status = 0;
      while (Date.now() - started < 5000) {
        const res = await app.inject({
          method: 'GET',
          url: '/api/authenticated',
          headers: { authorization: `Bearer ${token}` },
        });
        status = res.statusCode;
        if (status === want) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      return status;
    }

    it('a token revoked on one process is refused by the other, which had kept it', async () => {
      const { a, b } = await twoProcesses();
      const ann = await loginUser(a.ctx, a.app, 'ann');
      const created = await ann.post('/api/user/tokens', { name: 'bot' });
      const token = created.body.token as string;
      // Process b keeps the token after its first use.
      expect(await untilStatus(b.app, token, 200)).toBe(200);
      expect(await untilStatus(b.app, token, 200)).toBe(200);
      const revoked = await ann.post('/api/user/tokens/delete', { token_id: created.body._id });
      expect(revoked.status).toBe(200);
      expect(await untilStatus(b.app, token, 401)).toBe(401);
      expect(await untilStatus(a.app, token, 401)).toBe(401);
    });

    it('a ban on one process stops the user’s token on the other', async () => {
      const { a, b } = await twoProcesses();
      const root = await loginUser(a.ctx, a.app, 'root', { admin: true });
      const ann = await loginUser(a.ctx, a.app, 'ann');
      const token = (await ann.post('/api/user/tokens', { name: 'bot' })).body.token as string;
      expect(await untilStatus(b.app, token, 200)).toBe(200);
      const banned = await root.post('/api/admin/moderate', {
        target: 'user',
        name: 'ann',
        action: 'ban',
        reason: 'abuse',
      });
      expect(banned.status, banned.text).toBe(200);
      expect(await untilStatus(b.app, token, 401)).toBe(401);
    });
  });
}
