import { expect, onTestFinished } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { TEST_ORIGIN, TEST_SECRET, type TestClock } from './build-test-app.js';
import { createTestDatabase, type TestDatabaseKind } from './databases.js';

export type Process = Awaited<ReturnType<typeof buildApp>>;

/**
 * Two processes on one new database, each with its own bus (the SQLite events file, or PostgreSQL
 * LISTEN/NOTIFY) and kept state, as WORKERS=2 or two machines run them; both share `clock`. They
 * are closed and the database dropped when the test finishes.
 */
export async function twoProcesses(
  kind: TestDatabaseKind,
  clock: TestClock,
  /** More configuration for both (REDIS_URL: they share Redis instead of the database's channel). */
  env: Record<string, string> = {},
): Promise<{ a: Process; b: Process }> {
  const database = await createTestDatabase(kind, { empty: true });
  const apps: Process[] = [];
  onTestFinished(async () => {
    for (const { app } of apps) await app.close();
    await database.drop();
  });
  const config = loadConfig({
    DATA_DIR: database.dataDir,
    PUBLIC_URL: TEST_ORIGIN,
    SESSION_SECRET: TEST_SECRET,
    LOG_LEVEL: 'silent',
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    ...env,
  });
  for (let i = 0; i < 2; i++) {
    const built = await buildApp(config, { clock, logger: false });
    apps.push(built);
    await built.app.ready();
  }
  return { a: apps[0]!, b: apps[1]! };
}

/**
 * `read` (a request to the process that did not make a change) gives `expected`: at its very next
 * request on SQLite, where every request reads the events file first; within a few seconds on
 * PostgreSQL, whose LISTEN / NOTIFY news arrives a few milliseconds after the commit.
 */
export async function expectOnOtherProcess<T>(
  kind: TestDatabaseKind,
  read: () => Promise<T>,
  expected: T,
): Promise<void> {
  if (kind === 'sqlite') expect(await read()).toEqual(expected);
  else await expect.poll(read, { timeout: 5000 }).toEqual(expected);
}
