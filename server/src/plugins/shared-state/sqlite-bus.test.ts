import SQLite from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_TOPICS, CachedValue, type Topic } from '../../lib/invalidation.js';
import { SQLITE_POLL_MS, STARTUP_WAIT_MS, SqliteBus, eventsFileFor } from './sqlite-bus.js';

let dir: string;
const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Two processes' buses on one database file (WORKERS=2), and a raw connection to the database. */
async function twoProcesses() {
  dir = mkdtempSync(path.join(tmpdir(), 'ctf-sqlite-bus-'));
  const file = path.join(dir, 'ctf.sqlite');
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.exec('create table counter (n integer not null); insert into counter values (0);');
  const busA = await SqliteBus.open(file, ALL_TOPICS);
  const busB = await SqliteBus.open(file, ALL_TOPICS);
  open.push(database, busA, busB);
  return { file, database, busA, busB };
}

function heard(bus: SqliteBus): Topic[] {
  const topics: Topic[] = [];
  bus.subscribe((t) => topics.push(t));
  return topics;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SqliteBus', () => {
  it('keeps its publications in a file of its own beside the database', () => {
    expect(eventsFileFor('/data/ctf.sqlite')).toBe('/data/ctf-events.sqlite');
    expect(eventsFileFor('/data/site.db')).toBe('/data/site-events.db');
  });

  it("delivers another process's publication to the very next request (sync), without waiting for the poll", async () => {
    const { database, busA, busB } = await twoProcesses();
    expect(busB.hasSiblings).toBe(true);
    const cached = new CachedValue(busB, ['solves'], async () =>
      database.prepare('select n from counter').pluck().get(),
    );
    expect(await cached.get()).toBe(0);
    database.exec('update counter set n = 1');
    busA.publish('solves');
    busB.sync();
    expect(await cached.get()).toBe(1);
  });

  it('delivers exactly the topics published elsewhere, each once, and not its own again', async () => {
    const { busA, busB } = await twoProcesses();
    const onA = heard(busA);
    const onB = heard(busB);
    busA.publish('solves-added');
    busA.publish('solves-added');
    busA.publish('teams');
    busB.sync();
    busB.sync();
    expect(onB.sort()).toEqual(['solves-added', 'teams']);
    expect(onA).toEqual(['solves-added', 'solves-added', 'teams']);
    busB.publish('sessions');
    busA.sync();
    busB.sync();
    expect(onA).toEqual(['solves-added', 'solves-added', 'teams', 'sessions']);
    expect(onB.sort()).toEqual(['sessions', 'solves-added', 'teams']);
  });

  it('costs readers nothing for a write that publishes nothing (the wrong-flag counter)', async () => {
    const { database, busB } = await twoProcesses();
    let builds = 0;
    const cached = new CachedValue(busB, ['solves'], async () => ++builds);
    await cached.get();
    database.exec('update counter set n = n + 1');
    busB.sync();
    await cached.get();
    expect(builds).toBe(1);
  });

  it('drops everything when it slept through publications that were already deleted', async () => {
    const { file, busA, busB } = await twoProcesses();
    const onB = heard(busB);
    busA.publish('teams');
    busA.publish('teams');
    const raw = new SQLite(eventsFileFor(file));
    raw.exec("delete from events where topic = 'teams'");
    raw.close();
    busA.publish('ratings');
    busB.sync();
    expect(new Set(onB)).toEqual(new Set(ALL_TOPICS));
  });

  it('alone, skips the per-request check, and learns of a newcomer at its next poll', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ctf-sqlite-bus-'));
    const file = path.join(dir, 'ctf.sqlite');
    const first = await SqliteBus.open(file, ALL_TOPICS);
    open.push(first);
    expect(first.hasSiblings).toBe(false);
    const started = Date.now();
    const second = await SqliteBus.open(file, ALL_TOPICS);
    open.push(second);
    // The newcomer found a live process and waited before it could serve.
    expect(Date.now() - started).toBeGreaterThanOrEqual(STARTUP_WAIT_MS - 5);
    expect(second.hasSiblings).toBe(true);
    await sleep(SQLITE_POLL_MS * 2);
    expect(first.hasSiblings).toBe(true);
  });
});
