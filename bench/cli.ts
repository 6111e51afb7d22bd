import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ScenarioName } from './load.js';
import { formatReport } from './report.js';
import { SCENARIOS, runBench } from './run.js';
import { BASE_EVENT, DOUBLE_EVENT, TINY_EVENT } from './seed.js';

/**
 * `npm run bench`: the whole benchmark on SQLite, and on PostgreSQL when BENCH_DATABASE_URL (or
 * TEST_DATABASE_URL) names a server; writes bench/RESULTS.md. BENCH_SECONDS shortens each scenario.
 *
 * While working on one figure, BENCH_ONLY narrows the run (a comma list of scenarios, `sqlite`,
 * `postgres`, and the legs `workers`, `double`, `dynamic`, `streams` and `instances`, e.g.
 * BENCH_ONLY=sqlite,leaderboard,double; BENCH_ONLY=archive seeds the event and builds only its archive); a narrowed run prints its report and leaves RESULTS.md
 * alone, which only a whole run may write. The legs: `workers` the mixed profile with WORKERS=2,
 * `double` the doubled event, `dynamic` the event with half the challenges dynamic (issue 16),
 * `archive` the static archive of the event built by `npm run archive` (issue 32; bench/archive.ts),
 * `streams` BENCH_STREAMS (2,000) open live event streams on one process (issue 15), `instances`
 * 30 teams starting per-team instances at once (bench/instances.ts; BENCH_WARM_ENTRIES
 * warm entry points first, default 30, 0: every start cold), run only where a Docker engine with
 * the test image answers (else skipped with one line) unless named; `rush` the
 * start of an event (bench/rush-leg.ts): BENCH_RUSH (10,000) players sign in through a fake OAuth
 * provider, open the list and the board and submit, in the project's image under `--cpus 1
 * --memory 1g` when an engine answers, else the built server here (BENCH_RUSH_WHERE=machine forces it).
 * BENCH_EVENT=tiny seeds the tests' tiny event instead (a quick check that a narrowed run works).
 */
const pg = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (pg) process.env.TEST_DATABASE_URL = pg;
const tiny = process.env.BENCH_EVENT === 'tiny';
const only = new Set((process.env.BENCH_ONLY ?? '').split(',').filter(Boolean));
const wants = (part: string, group: readonly string[]) =>
  only.size === 0 || only.has(part) || !group.some((g) => only.has(g));
const DATABASES = ['sqlite', 'postgres'] as const;
const PARTS = ['workers', 'double', 'dynamic', 'streams', 'instances', 'archive', 'rush'] as const;
const legs = [...SCENARIOS, ...PARTS];
// The rush seeds and serves its own event: named alone, no database leg runs beside it.
const rushAlone = only.has('rush') && [...only].every((p) => p === 'rush');
const report = await runBench({
  databases: rushAlone ? [] : DATABASES.filter((d) => (d === 'sqlite' || pg) && wants(d, DATABASES)),
  size: tiny ? TINY_EVENT : BASE_EVENT,
  doubleSize: wants('double', legs) ? (tiny ? TINY_EVENT : DOUBLE_EVENT) : null,
  durationSec: Number(process.env.BENCH_SECONDS ?? 10),
  connections: [50, 100],
  scenarios: SCENARIOS.filter((s: ScenarioName) => wants(s, legs)),
  workers: wants('workers', legs),
  streams: wants('streams', legs) ? Number(process.env.BENCH_STREAMS ?? 2000) : 0,
  dynamic: wants('dynamic', legs),
  // Named: it must run (no engine is an error); in a wider run only where an engine answers.
  instances: only.has('instances') ? 'required' : wants('instances', legs) ? 'auto' : 'off',
  archive: wants('archive', legs),
  boardCost: true,
  rush: wants('rush', legs)
    ? {
        players: Number(process.env.BENCH_RUSH ?? (tiny ? 50 : 10_000)),
        spreadSec: Number(process.env.BENCH_RUSH_SPREAD ?? 50),
        where: process.env.BENCH_RUSH_WHERE === 'machine' ? 'machine' : 'auto',
      }
    : null,
  log: (l) => process.stdout.write(l + '\n'),
});
if (only.size > 0 || tiny) {
  process.stdout.write(`\n${formatReport(report)}`);
  process.exit(0);
}
const out = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
// The figures are measured; what was changed for them, and why targets are missed, is written by
// hand in NOTES.md and follows them.
const notes = readFileSync(fileURLToPath(new URL('./NOTES.md', import.meta.url)), 'utf8');
writeFileSync(out, `${formatReport(report)}\n${notes}`);
process.stdout.write(`\nwrote ${out}\n`);
process.exit(0);
