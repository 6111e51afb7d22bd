import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeEach } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';

/**
 * The databases a server test runs on: a fresh SQLite file always, and a fresh PostgreSQL
 * database when TEST_DATABASE_URL is set (CI sets it). Each call makes a new database of its own.
 *
 * By default the new database starts already migrated: a copy of a template that was migrated
 * once (by the same migrations the app runs at start-up), instead of running every migration
 * again for every test. The app still runs migrateToLatest when it starts (finding nothing to
 * do), exactly as a restarted server does. `{ empty: true }` gives a database with no tables.
 */
export type TestDatabaseKind = 'sqlite' | 'postgres';

export function testDatabaseKinds(): TestDatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestDatabase {
  kind: TestDatabaseKind;
  /** DATABASE_URL for a postgres database; undefined for SQLite (it lives in dataDir). */
  databaseUrl: string | undefined;
  dataDir: string;
  drop(): Promise<void>;
}

/** The SQLite file's name in DATA_DIR (config.ts). */
const SQLITE_FILE = 'ctf.sqlite';

/**
 * A name for the current schema: a hash of the migration code (and the code that opens and
 * migrates a database), so a changed or added migration makes a new template instead of reusing
 * a stale one.
 */
let schemaKeyMemo: string | null = null;
function schemaKey(): string {
  if (schemaKeyMemo) return schemaKeyMemo;
  // The run's own templates (global-setup.ts removes them when the run ends).
  const run = process.env.CTF_TEST_RUN ?? 'local';
  const dbDir = fileURLToPath(new URL('../src/db/', import.meta.url));
  const migrations = path.join(dbDir, 'migrations');
  const files = [
    path.join(dbDir, 'migrate.ts'),
    path.join(dbDir, 'connect.ts'),
    ...readdirSync(migrations)
      .sort()
      .map((f) => path.join(migrations, f)),
  ];
  const hash = createHash('sha256');
  for (const f of files) hash.update(path.basename(f)).update('\0').update(readFileSync(f)).update('\0');
  schemaKeyMemo = `${hash.digest('hex').slice(0, 16)}_${run}`;
  return schemaKeyMemo;
}

/** A migrated SQLite file shared by every test process of this schema (made once, atomically). */
function sqliteTemplate(): Promise<string> {
  return (sqliteTemplateMemo ??= makeSqliteTemplate());
}
let sqliteTemplateMemo: Promise<string> | null = null;
async function makeSqliteTemplate(): Promise<string> {
  const file = path.join(tmpdir(), `ctf-test-template-${schemaKey()}.sqlite`);
  if (existsSync(file)) return file;
  const dir = mkdtempSync(path.join(tmpdir(), 'ctf-test-template-'));
  try {
    const made = path.join(dir, SQLITE_FILE);
    const handle = await connectDatabase({ kind: 'sqlite', file: made, synchronous: 'NORMAL' });
    try {
      await migrateToLatest(handle.db as never);
    } finally {
      // Closing the last connection checkpoints the WAL into the file and removes it.
      await handle.close();
    }
    // Atomic: another process copies either no template or a whole one.
    renameSync(made, file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return file;
}

function adminUrl(): string {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) throw new Error('TEST_DATABASE_URL is not set');
  return admin;
}

function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A migrated PostgreSQL database to copy (CREATE DATABASE ... TEMPLATE), made once per schema
 * on the server and shared by every test process of the run; an advisory lock lets one process
 * make it while the others wait. Other runs' templates are left alone (another checkout may be
 * testing with them at the same time on the same server); global-setup.ts drops this run's.
 */
function postgresTemplate(): Promise<string> {
  return (postgresTemplateMemo ??= makePostgresTemplate());
}
let postgresTemplateMemo: Promise<string> | null = null;
const TEMPLATE_PREFIX = 'ctf_test_template_';
async function makePostgresTemplate(): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${schemaKey()}`;
  await withAdmin(async (client) => {
    await client.query('select pg_advisory_lock(hashtext($1))', [TEMPLATE_PREFIX]);
    try {
      const found = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount) return;
      const building = `${name}_building`;
      await client.query(`drop database if exists ${building} with (force)`);
      await client.query(`create database ${building}`);
      const handle = await connectDatabase({ kind: 'postgres', url: databaseUrl(building) });
      try {
        await migrateToLatest(handle.db as never);
      } finally {
        await handle.close();
      }
      // Renamed only once complete: a template under the final name is always whole.
      await client.query(`alter database ${building} rename to ${name}`);
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [TEMPLATE_PREFIX]);
    }
  });
  return name;
}

export async function createTestDatabase(
  kind: TestDatabaseKind,
  options: { empty?: boolean } = {},
): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ctf-test-'));
  if (kind === 'sqlite') {
    if (!options.empty) copyFileSync(await sqliteTemplate(), path.join(dataDir, SQLITE_FILE));
    return {
      kind,
      databaseUrl: undefined,
      dataDir,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const template = options.empty ? null : await postgresTemplate();
  const name = `ctf_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) =>
    client.query(`create database ${name}${template ? ` template ${template}` : ''}`),
  );
  return {
    kind,
    databaseUrl: databaseUrl(name),
    dataDir,
    drop: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      // DROP DATABASE waits for a checkpoint; the next test need not wait for it too.
      const dropping = withAdmin((client) => client.query(`drop database if exists ${name} with (force)`))
        .then(() => undefined)
        .finally(() => pendingDrops.delete(dropping));
      pendingDrops.add(dropping);
    },
  };
}

/**
 * PostgreSQL databases being dropped in the background. This module is evaluated once per test
 * file (each file has its own module graph), and this hook, added while the file is collected,
 * makes the file wait for them (and fail if one could not be dropped).
 */
const pendingDrops = new Set<Promise<void>>();
afterAll(async () => {
  await Promise.all(pendingDrops);
});

/** The app's own connection to a test database (its SQLite file, or its PostgreSQL URL). */
export function connectTestDatabase(database: TestDatabase): Promise<DatabaseHandle> {
  return connectDatabase(
    database.databaseUrl
      ? { kind: 'postgres', url: database.databaseUrl }
      : { kind: 'sqlite', file: path.join(database.dataDir, SQLITE_FILE), synchronous: 'NORMAL' },
  );
}

/**
 * A fresh test database of this kind for each test of the calling describe block, connected as
 * the app connects; closed and dropped after each. Read the handle inside a test.
 */
export function connectedDatabaseEach(kind: TestDatabaseKind): () => DatabaseHandle {
  let database: TestDatabase | null = null;
  let handle: DatabaseHandle | null = null;
  beforeEach(async () => {
    database = await createTestDatabase(kind);
    handle = await connectTestDatabase(database);
  });
  afterEach(async () => {
    await handle?.close();
    await database?.drop();
    handle = null;
    database = null;
  });
  return () => {
    if (!handle) throw new Error('the test database is connected only inside a test');
    return handle;
  };
}
