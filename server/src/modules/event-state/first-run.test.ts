import { siteApi } from '@ctf/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig, loadStorageConfig } from '../../config.js';
import { connectDatabase } from '../../db/connect.js';
import { TEST_ORIGIN, TEST_SECRET, TestClock } from '../../../test/build-test-app.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases.js';
import { firstRunWindow } from './event-state.defaults.js';
import { migrateToLatest } from '../../db/migrate.js';
import { writeSettingRows } from './event-state.repo.js';
import { readEventState } from './event-state.service.js';

const HOUR = 60 * 60 * 1000;
const WEEK = 7 * 24 * HOUR;

for (const kind of testDatabaseKinds()) {
  describe(`first run without EVENT_START and EVENT_END (${kind})`, () => {
    let database: TestDatabase;
    const open: { close(): Promise<void> }[] = [];
    afterEach(async () => {
      for (const app of open.splice(0)) await app.close();
      await database?.drop();
    });

    /** One start of the site on the test database, at the clock's time. */
    async function start(at: string, env: Record<string, string> = {}) {
      const config = loadConfig({
        DATA_DIR: database.dataDir,
        PUBLIC_URL: TEST_ORIGIN,
        SESSION_SECRET: TEST_SECRET,
        LOG_LEVEL: 'silent',
        ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
        ...env,
      });
      const clock = new TestClock(Date.parse(at));
      const { app, ctx } = await buildApp(config, { clock, logger: false });
      open.push(app);
      const res = await app.inject({ method: 'GET', url: siteApi.siteInfo.path });
      expect(res.statusCode).toBe(200);
      return { app, ctx, clock, info: JSON.parse(res.body) as siteApi.SiteInfo };
    }

    it('a new database gets a window seven days ahead (at a full hour) for 7 days, and keeps every field', async () => {
      database = await createTestDatabase(kind);
      const first = Date.parse('2026-03-02T09:41:27Z');
      const { info } = await start(new Date(first).toISOString());
      expect(Object.keys(info).sort()).toEqual(Object.keys(siteApi.SiteInfo.shape).sort());
      const startMs = Date.parse(info.eventStart);
      expect(startMs).toBeGreaterThan(first + WEEK);
      expect(startMs - first - WEEK).toBeLessThanOrEqual(HOUR);
      expect(info.eventStart).toBe('2026-03-09T10:00:00.000Z');
      expect(Date.parse(info.eventEnd) - startMs).toBe(WEEK);
      // Not opened, and a visitor is told when it opens: the window is still ahead.
      expect(info.activated).toBe(false);
    });

    it('a new database opens and closes play with its window (autoOpen and autoClose stored on)', async () => {
      database = await createTestDatabase(kind);
      const { app, ctx, clock, info } = await start('2026-03-02T09:41:27Z');
      const { settings } = await readEventState(ctx);
      expect(settings).toMatchObject({ autoOpen: true, autoClose: true, allowCreateDuringEvent: false });
      const siteInfo = async () =>
        JSON.parse(
          (await app.inject({ method: 'GET', url: siteApi.siteInfo.path })).body,
        ) as siteApi.SiteInfo;
      clock.set(Date.parse(info.eventStart) + 1000);
      expect((await siteInfo()).activated).toBe(true);
      clock.set(Date.parse(info.eventEnd) + 1000);
      expect((await siteInfo()).activated).toBe(false);
    });

    it('an existing site (its window already stored) keeps its own autoOpen and autoClose', async () => {
      database = await createTestDatabase(kind);
      const storage = loadStorageConfig({
        DATA_DIR: database.dataDir,
        ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
      });
      const handle = await connectDatabase(storage.database);
      await migrateToLatest(handle.db as never);
      await writeSettingRows(
        handle.db,
        new Map([
          ['setting:eventStart', JSON.stringify('2026-03-02T10:00:00.000Z')],
          ['setting:eventEnd', JSON.stringify('2026-03-09T10:00:00.000Z')],
        ]),
      );
      await handle.close();
      const { ctx, info } = await start('2026-03-02T12:00:00Z');
      expect(info.eventStart).toBe('2026-03-02T10:00:00.000Z');
      expect((await readEventState(ctx)).settings).toMatchObject({ autoOpen: false, autoClose: false });
      expect(info.activated).toBe(false);
    });

    it('a restart keeps the stored window, hours later', async () => {
      database = await createTestDatabase(kind);
      const { app, info } = await start('2026-03-02T09:41:27Z');
      await app.close();
      open.length = 0;
      const again = await start('2026-03-02T15:05:00Z');
      expect(again.info.eventStart).toBe(info.eventStart);
      expect(again.info.eventEnd).toBe(info.eventEnd);
    });

    it('two processes starting at once on one database agree on one window', async () => {
      database = await createTestDatabase(kind);
      // Either side of a full hour: each would make a different window on its own.
      const [a, b] = await Promise.all([start('2026-03-02T09:59:59Z'), start('2026-03-02T10:00:01Z')]);
      expect(a.info.eventStart).toBe(b.info.eventStart);
      expect(a.info.eventEnd).toBe(b.info.eventEnd);
    });

    it('EVENT_START and EVENT_END, when set, are the window, and nothing is stored for them', async () => {
      database = await createTestDatabase(kind);
      const env = { EVENT_START: '2026-05-01T18:00:00Z', EVENT_END: '2026-05-03T18:00:00Z' };
      const { app, info } = await start('2026-03-02T09:41:27Z', env);
      expect(info.eventStart).toBe('2026-05-01T18:00:00.000Z');
      expect(info.eventEnd).toBe('2026-05-03T18:00:00.000Z');
      await app.close();
      open.length = 0;
      // Started later without them: the site makes its own window then.
      const later = await start('2026-03-05T12:10:00Z');
      expect(later.info.eventStart).toBe('2026-03-12T13:00:00.000Z');
    });

    it("an admin's saved dates stand; a site that saved one end gets the other a week away", async () => {
      database = await createTestDatabase(kind);
      const { app } = await start('2026-03-02T09:41:27Z', {
        EVENT_START: '2026-05-01T18:00:00Z',
        EVENT_END: '2026-05-03T18:00:00Z',
      });
      const storage = loadStorageConfig({
        DATA_DIR: database.dataDir,
        ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
      });
      const handle = await connectDatabase(storage.database);
      await writeSettingRows(
        handle.db,
        new Map([['setting:eventStart', JSON.stringify('2026-04-01T08:00:00.000Z')]]),
      );
      await handle.close();
      await app.close();
      open.length = 0;
      const { info } = await start('2026-03-02T10:30:00Z');
      expect(info.eventStart).toBe('2026-04-01T08:00:00.000Z');
      expect(info.eventEnd).toBe('2026-04-08T08:00:00.000Z');
    });
  });
}

describe('firstRunWindow', () => {
  it('starts seven days after, rounded up to a full hour (already on the hour: that hour)', () => {
    expect(firstRunWindow(new Date('2026-03-02T10:00:00.000Z')).start.toISOString()).toBe(
      '2026-03-09T10:00:00.000Z',
    );
    expect(firstRunWindow(new Date('2026-03-02T10:00:00.001Z')).start.toISOString()).toBe(
      '2026-03-09T11:00:00.000Z',
    );
    expect(firstRunWindow(new Date('2026-12-24T23:59:59.999Z')).start.toISOString()).toBe(
      '2027-01-01T00:00:00.000Z',
    );
  });
});
