import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { connectedDatabaseEach } from '../../test/databases.js';
import { BUSY_TIMEOUT_MS, PAGE_CACHE_KIB } from './sqlite-dialect.js';
import { startSqliteWorker } from './sqlite-worker.js';

describe('the SQLite worker: checkpoints and bulk writes off the event loop', () => {
  // A fresh SQLite file for each test, connected as the app connects (with its worker).
  const database = connectedDatabaseEach('sqlite');

  it("a worker copies the log into the file while the server's own connection never does", async () => {
    const sqlite = database().sqlite!;
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    sqlite.exec('create table t (v text)');
    const before = statSync(sqlite.name).size;
    const insert = sqlite.prepare('insert into t (v) values (?)');
    sqlite.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run('x'.repeat(1000));
    })();
    // The rows are in the log, not yet in the file; the worker's checkpoint brings them.
    await vi.waitFor(() => expect(statSync(sqlite.name).size).toBeGreaterThan(before + 1_000_000), {
      timeout: 15_000,
      interval: 50,
    });
    expect(sqlite.prepare('select count(*) as n from t').get()).toEqual({ n: 2000 });
  });

  it('reports a worker that cannot run, so the caller checkpoints by itself again', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ctf-ckpt-'));
    try {
      const onFailure = vi.fn();
      const worker = await startSqliteWorker(path.join(dir, 'missing', 'ctf.sqlite'), 'NORMAL', onFailure);
      expect(onFailure).toHaveBeenCalledTimes(1);
      expect(worker.running).toBe(false);
      await expect(worker.write('select 1', [])).rejects.toThrow('the SQLite worker is not running');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("commits a write on its own connection before answering, seen by the server's next read", async () => {
    const handle = database();
    handle.sqlite!.exec('create table t (v text)');
    const write = handle.writeInBackground!;
    await Promise.all(
      [1, 2, 3].map((n) => write('insert into t (v) select value from json_each(?)', [`[${n},${n}]`])),
    );
    expect(handle.sqlite!.prepare('select count(*) as n from t').get()).toEqual({ n: 6 });
  });

  it("refuses what the server's connection refuses (foreign keys), with the database's message", async () => {
    const handle = database();
    const sqlite = handle.sqlite!;
    sqlite.exec(
      'create table parent (id integer primary key); create table child (parent_id integer references parent (id))',
    );
    await expect(handle.writeInBackground!('insert into child (parent_id) values (?)', [7])).rejects.toThrow(
      'FOREIGN KEY constraint failed',
    );
    await handle.writeInBackground!('insert into parent (id) values (?)', [7]);
    await handle.writeInBackground!('insert into child (parent_id) values (?)', [7]);
    expect(sqlite.prepare('select count(*) as n from child').get()).toEqual({ n: 1 });
  });

  it("sets its connection up as the server's (connectionPragmas), with the small page cache", async () => {
    const handle = database();
    const sqlite = handle.sqlite!;
    const settings = `select (select cache_size from pragma_cache_size) as cache_size,
      (select timeout from pragma_busy_timeout) as busy_timeout,
      (select synchronous from pragma_synchronous) as synchronous,
      (select foreign_keys from pragma_foreign_keys) as foreign_keys`;
    const server = sqlite.prepare(settings).get();
    expect(server).toEqual({
      cache_size: -PAGE_CACHE_KIB,
      busy_timeout: BUSY_TIMEOUT_MS,
      synchronous: expect.any(Number),
      foreign_keys: 1,
    });
    // The worker writes what its own connection reads.
    sqlite.exec('create table seen (cache_size, busy_timeout, synchronous, foreign_keys)');
    await handle.writeInBackground!(`insert into seen ${settings}`, []);
    expect(sqlite.prepare('select * from seen').get()).toEqual(server);
  });

  it('answers every write sent before it was stopped, and refuses those after', async () => {
    const sqlite = database().sqlite!;
    sqlite.exec('create table t (v integer)');
    const worker = await startSqliteWorker(sqlite.name, 'NORMAL', () => {});
    const writes = Array.from({ length: 20 }, (_, i) => worker.write('insert into t (v) values (?)', [i]));
    await worker.stop();
    await Promise.all(writes);
    expect(worker.running).toBe(false);
    await expect(worker.write('insert into t (v) values (?)', [99])).rejects.toThrow('not running');
    expect(sqlite.prepare('select count(*) as n from t').get()).toEqual({ n: 20 });
  });
});
