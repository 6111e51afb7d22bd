import SQLite from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_TOPICS, CachedValue } from '../../lib/invalidation.js';
import { SqliteBus } from './sqlite-bus.js';

let dir: string;
const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Two connections to one file, as two WORKERS processes have. */
function twoProcesses() {
  dir = mkdtempSync(path.join(tmpdir(), 'ctf-sqlite-bus-'));
  const file = path.join(dir, 'db.sqlite');
  const a = new SQLite(file);
  a.pragma('journal_mode = WAL');
  a.exec('create table counter (n integer not null); insert into counter values (0);');
  const b = new SQLite(file);
  const busB = new SqliteBus(b, ALL_TOPICS);
  open.push(busB, a, b);
  return { a, b, busB };
}

describe('SqliteBus', () => {
  it("makes another process's commit visible to the very next cached read, without waiting for the poll", async () => {
    const { a, b, busB } = twoProcesses();
    const cached = new CachedValue(busB, ['solves'], async () => b.prepare('select n from counter').pluck().get());
    expect(await cached.get()).toBe(0);
    a.exec('update counter set n = 1');
    expect(await cached.get()).toBe(1);
    expect(await cached.get()).toBe(1);
  });

  it('does not drop caches for its own commits (the local bus carries those)', async () => {
    const { b, busB } = twoProcesses();
    let builds = 0;
    const cached = new CachedValue(busB, ['solves'], async () => ++builds);
    await cached.get();
    b.exec('update counter set n = 2');
    await cached.get();
    expect(builds).toBe(1);
  });
});
