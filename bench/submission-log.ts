/**
 * The Submissions tab at scale (issue 18): fills a fresh database with 1,000,000 log rows shaped
 * like a busy event (5,000 users, 1,500 teams, 100 challenges, nine wrong attempts in ten) and
 * times each filter of GET /api/admin/submissions through its service: the first page, and a page
 * deep in the results (through a cursor). Run: `npx tsx bench/submission-log.ts` (SQLite), with
 * BENCH_DATABASE_URL=postgres://... for PostgreSQL (its submission log is emptied first); ROWS=... for another size. The figures go to
 * bench/NOTES.md by hand (issue 18 heading).
 */
import { integrityApi } from '@ctf/contract';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectDatabase } from '../server/src/db/connect.js';
import { migrateToLatest } from '../server/src/db/migrate.js';
import type { AppContext } from '../server/src/context.js';
import { listSubmissions } from '../server/src/modules/submission-log/submission-log.service.js';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const pgUrl = process.env.BENCH_DATABASE_URL;
const dir = mkdtempSync(path.join(tmpdir(), 'ctf-sublog-'));
const database = await connectDatabase(
  pgUrl
    ? { kind: 'postgres', url: pgUrl }
    : { kind: 'sqlite', file: path.join(dir, 'log.sqlite'), synchronous: 'NORMAL' },
);
await migrateToLatest(database.db as never);
// PostgreSQL: the log is emptied first (a database used by the tests may hold rows).
if (pgUrl) await database.db.deleteFrom('submissions').execute();

let seed = 42;
/** mulberry32: seeded, so every run measures the same rows. */
const rand = (n: number) => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return Math.floor((((x ^ (x >>> 14)) >>> 0) / 4294967296) * n);
};
const T0 = Date.parse('2026-10-14T21:00:00Z');
const WEEK = 7 * 24 * 3600 * 1000;
const RESULTS = [
  'wrong',
  'wrong',
  'wrong',
  'wrong',
  'wrong',
  'wrong',
  'wrong',
  'wrong',
  'wrong',
  'correct',
  'rate_limited',
  'already_solved',
];

const started = Date.now();
const BATCH = 500;
for (let done = 0; done < ROWS;) {
  await database.transaction(async (trx) => {
    for (let k = 0; k < 20 && done < ROWS; k++) {
      const rows = [];
      for (let i = 0; i < BATCH && done < ROWS; i++, done++) {
        const user = rand(5000);
        const team = user % 4 === 0 ? null : user % 1500;
        const result = RESULTS[rand(RESULTS.length)]!;
        rows.push({
          created_at: new Date(T0 + Math.floor((done / ROWS) * WEEK) + rand(1000)).toISOString(),
          user_id: user + 1,
          username: `user${user}`,
          team_id: team === null ? null : team + 1,
          team_name: team === null ? null : `team${team}`,
          challenge_id: rand(100) + 1,
          challenge_name: `challenge${rand(100)}`,
          result,
          submitted: result === 'wrong' ? `flag{guess_${rand(1e9)}}` : null,
          address: `10.${rand(4)}.${rand(256)}.${rand(256)}`,
        });
      }
      await trx.insertInto('submissions').values(rows).execute();
    }
  });
}
if (pgUrl)
  await database.db.executeQuery({
    sql: 'analyze submissions',
    parameters: [],
    query: { kind: 'RawNode' },
  } as never);
else await database.db.executeQuery({ sql: 'analyze', parameters: [], query: { kind: 'RawNode' } } as never);
console.log(`${database.dialect}: ${ROWS} rows written in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const ctx = { database, config: {}, clock: { now: () => new Date() } } as unknown as AppContext;
const filters: [string, Record<string, string>][] = [
  ['none', {}],
  ['user', { user: 'user1234' }],
  ['team', { team: 'team77' }],
  ['challenge', { challenge: 'challenge42' }],
  ['result=correct', { result: 'correct' }],
  ['result=wrong', { result: 'wrong' }],
  [
    'time range (one day)',
    { from: new Date(T0 + 2 * 86400000).toISOString(), to: new Date(T0 + 3 * 86400000).toISOString() },
  ],
  ['text contains (common)', { q: 'guess_12' }],
  ['text contains (rare)', { q: 'guess_123456789' }],
  ['user + result', { user: 'user1234', result: 'wrong' }],
];

/** The bench reads the log as an admin does (every row, the submitted text). */
const BENCH_ADMIN = { id: null, username: '(bench)', role: 'admin' } as const;

async function time(
  query: Record<string, string>,
): Promise<{ ms: number; next: string | null; rows: number }> {
  const parsed = integrityApi.SubmissionQuery.parse(query);
  const best: number[] = [];
  let page = await listSubmissions(ctx, parsed, BENCH_ADMIN);
  for (let i = 0; i < 5; i++) {
    const t = process.hrtime.bigint();
    page = await listSubmissions(ctx, parsed, BENCH_ADMIN);
    best.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  best.sort((a, b) => a - b);
  return { ms: best[2]!, next: page.next_cursor, rows: page.rows.length };
}

console.log('| filter | first page ms | rows | 20th page ms |');
console.log('| --- | --- | --- | --- |');
for (const [name, query] of filters) {
  const first = await time(query);
  // Walk to the 20th page through cursors, then time that page.
  let cursor = first.next;
  for (let i = 0; i < 18 && cursor; i++) {
    cursor = (
      await listSubmissions(ctx, integrityApi.SubmissionQuery.parse({ ...query, cursor }), BENCH_ADMIN)
    ).next_cursor;
  }
  const deep = cursor ? await time({ ...query, cursor }) : null;
  console.log(`| ${name} | ${first.ms.toFixed(1)} | ${first.rows} | ${deep ? deep.ms.toFixed(1) : '-'} |`);
}
await database.close();
rmSync(dir, { recursive: true, force: true });
