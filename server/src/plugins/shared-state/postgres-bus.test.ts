import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/databases.js';
import { ALL_TOPICS, KeyedCache, type Topic } from '../../lib/invalidation.js';
import { PRESENCE_ALIVE_MS, PRESENCE_LEARN_MS, PostgresBus } from './postgres-bus.js';

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 3000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgresBus', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await createTestDatabase('postgres', { empty: true });
    pool = new pg.Pool({ connectionString: database.databaseUrl, max: 4 });
    // As the app's pool (db/connect.ts): an idle connection's backend ending is not a crash.
    pool.on('error', () => {});
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  const open = async (now: () => number) => {
    const bus = new PostgresBus(database.databaseUrl!, pool, ALL_TOPICS, now);
    await bus.start();
    return bus;
  };

  it('carries topics to the other processes, and tells whether one is there', async () => {
    let now = 1_000_000;
    const clock = () => now;
    const a = await open(clock);
    // Just started: it cannot know yet, so it counts as shared.
    expect(a.hasSiblings).toBe(true);
    now += PRESENCE_LEARN_MS;
    expect(a.hasSiblings).toBe(false);

    const b = await open(clock);
    const heardByA: Topic[] = [];
    a.subscribe((t) => heardByA.push(t));
    // A hears B's hello within a moment; B, A's answer to it (not only A's next beat).
    await until(() => a.hasSiblings, 'A knows of B');
    await new Promise((r) => setTimeout(r, 100));
    now += PRESENCE_LEARN_MS;
    expect(b.hasSiblings).toBe(true);
    b.publish('solves-added');
    await until(() => heardByA.includes('solves-added'), 'A hears the topic');
    expect(heardByA).toEqual(['solves-added']);

    // B leaves: A is alone again at once.
    await b.close();
    await until(() => !a.hasSiblings, 'A is alone again');

    // A process that goes silent (its beats stop) stops counting after PRESENCE_ALIVE_MS.
    const c = await open(clock);
    await until(() => a.hasSiblings, 'A knows of C');
    (c as unknown as { signal: () => Promise<void> }).signal = async () => {};
    now += PRESENCE_ALIVE_MS;
    expect(a.hasSiblings).toBe(false);
    await c.close();
    await a.close();
  });

  it('trusts no kept session while its LISTEN connection is down, and drops them all once back', async () => {
    const bus = await open(Date.now);
    let builds = 0;
    const cache = new KeyedCache<string, number>(bus, ['sessions'], 10, null, () => bus.hearsOthers());
    const read = () => cache.get('session', async () => ++builds);
    expect(bus.hearsOthers()).toBe(true);
    await read();
    await read();
    expect(builds).toBe(1);
    // The listening connection dies (a restart of PostgreSQL, a network cut between the two).
    await pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and query = 'LISTEN ctf_invalidate'`,
    );
    await until(() => !bus.hearsOthers(), 'the bus knows it cannot hear');
    // Until it listens again, every read goes to the source and nothing is kept.
    await read();
    await read();
    expect(builds).toBe(3);
    expect(cache.size).toBe(0);
    const heard: Topic[] = [];
    bus.subscribe((t) => heard.push(t));
    await until(() => bus.hearsOthers(), 'the bus listens again');
    // Back: every cache was told to drop what it had (it may have missed a notification).
    expect(heard).toEqual([...ALL_TOPICS]);
    // On one connection: the lost one is not left open beside it.
    const listening = await pool.query(
      `select count(*)::int as n from pg_stat_activity
       where datname = current_database() and query = 'LISTEN ctf_invalidate'`,
    );
    expect(listening.rows[0].n).toBe(1);
    await read();
    await read();
    expect(builds).toBe(4);
    cache.dispose();
    await bus.close();
  });

  it('counts as shared while it cannot listen', async () => {
    const bus = new PostgresBus('postgres://postgres@127.0.0.1:1/nowhere', pool, ALL_TOPICS, () => 10 ** 12);
    await bus.start();
    expect(bus.hasSiblings).toBe(true);
    expect(bus.hearsOthers()).toBe(false);
    await bus.close();
  });
});
