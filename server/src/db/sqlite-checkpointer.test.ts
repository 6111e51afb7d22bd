import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectDatabase } from './connect.js';
import { startCheckpointer } from './sqlite-checkpointer.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLite checkpoints off the event loop', () => {
  it("a worker copies the log into the file while the server's own connection never does", async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ctf-ckpt-'));
    const file = path.join(dir, 'ctf.sqlite');
    const handle = await connectDatabase({ kind: 'sqlite', file, synchronous: 'NORMAL' });
    try {
      const sqlite = handle.sqlite!;
      expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      sqlite.exec('create table t (v text)');
      const before = statSync(file).size;
      const insert = sqlite.prepare('insert into t (v) values (?)');
      sqlite.transaction(() => {
        for (let i = 0; i < 2000; i++) insert.run('x'.repeat(1000));
      })();
      // The rows are in the log, not yet in the file; the worker's checkpoint brings them.
      await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(before + 1_000_000), {
        timeout: 15_000,
        interval: 50,
      });
      expect(sqlite.prepare('select count(*) as n from t').get()).toEqual({ n: 2000 });
    } finally {
      await handle.close();
    }
  });

  it('reports a worker that cannot run, so the caller checkpoints by itself again', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ctf-ckpt-'));
    const onFailure = vi.fn();
    await startCheckpointer(path.join(dir, 'missing', 'ctf.sqlite'), onFailure);
    expect(onFailure).toHaveBeenCalledTimes(1);
  });
});

