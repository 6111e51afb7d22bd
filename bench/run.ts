import os from 'node:os';
import { startServer, type RunningServer } from '../e2e/support/server.js';
import type { BoardCost } from './board-cost.js';
import {
  SUBMITTING,
  currentListEtag,
  currentRssMb,
  isWarmed,
  peakRssMb,
  requestMaker,
  type LoadResult,
  warmUp,
  type ScenarioName,
} from './load.js';
import {
  countSolves,
  logLine,
  measure,
  prepare,
  settledLog,
  startHello,
  stopServer,
  type Baseline,
} from './harness.js';
import { boardSize, measureRefreshTransfer } from './pages.js';
import type { BenchOptions, BenchReport, DatabaseRun, DynamicRun, StreamsRun } from './results.js';
import type { SeededEvent } from './seed.js';
import { benchInstances } from './instances.js';
import { benchArchive } from './archive.js';
import { StreamsClient } from './streams.js';
import { benchRush, type RushRun } from './rush-leg.js';
import { FIRST_VIEW_SCENARIOS } from './first-view.js';

export const SCENARIOS: ScenarioName[] = [
  'visitor-list',
  'signed-in-list',
  'list-304',
  'leaderboard',
  'leaderboard-page',
  'graph',
  'info',
  'submit',
  'wrong-flag',
  'regex-submit',
  'mixed',
  ...FIRST_VIEW_SCENARIOS,
];

/** Scenarios measured at the highest connections only, where their targets are (fewer points). */
const AT_MOST_CONNECTIONS_ONLY: ReadonlySet<ScenarioName> = new Set(['graph', 'regex-submit']);

async function loadAll(
  baseline: Baseline,
  server: RunningServer,
  event: SeededEvent,
  scenarios: ScenarioName[],
  opts: BenchOptions,
  hello: LoadResult[],
): Promise<LoadResult[]> {
  const etag = await currentListEtag(server.url);
  const competitors = await boardSize(server.url);
  const out: LoadResult[] = [];
  const maxC = Math.max(...opts.connections);
  for (const name of scenarios) {
    if (isWarmed(name)) {
      const make = requestMaker(name, event, server.url, etag, competitors);
      await warmUp({ url: `http://127.0.0.1:${server.port}`, name, make }, maxC, opts.durationSec);
    }
    for (const c of opts.connections) {
      if (AT_MOST_CONNECTIONS_ONLY.has(name) && c !== maxC) continue;
      const make = requestMaker(name, event, server.url, etag, competitors);
      const r = await measure(baseline, `http://127.0.0.1:${server.port}`, name, make, c, opts, hello);
      logLine(opts, '', r);
      // Which scenario raises the server's peak: its memory now and its peak so far.
      const pid = server.process.pid!;
      opts.log?.(`    server RSS ${currentRssMb(pid).toFixed(1)} MB (peak ${peakRssMb(pid).toFixed(1)} MB)`);
      out.push(r);
    }
  }
  return out;
}

async function benchDatabase(
  baseline: Baseline,
  database: 'sqlite' | 'postgres',
  opts: BenchOptions,
  hello: LoadResult[],
): Promise<DatabaseRun> {
  opts.log?.(`${database}: seeding ${opts.size.users} users, ${opts.size.solves} solves`);
  const prepared = await prepare(database, opts.size, { boardCost: opts.boardCost });
  if (prepared.boardCost) logBoardCost(opts, database, prepared.boardCost);
  try {
    const archive = database === 'sqlite' && opts.archive ? await benchArchive(prepared.env, opts) : null;
    const t0 = Date.now();
    const server = await startServer({ ...prepared.env, LOG_LEVEL: 'warn' });
    const startupMs = Date.now() - t0;
    const before = await countSolves(server, prepared.event);
    const refresh = opts.scenarios.includes('leaderboard-page')
      ? await measureRefreshTransfer(server.url, `ctf_session=${prepared.event.sessions[0]!.token}`)
      : null;
    if (refresh) {
      opts.log?.(
        `  leaderboard page refresh at ${refresh.competitors} competitors: ${refresh.bodyBytes + refresh.headerBytes} bytes in ${refresh.requests} requests (whole board ${refresh.wholeBoardBytes})`,
      );
    }
    const results = await loadAll(baseline, server, prepared.event, opts.scenarios, opts, hello);
    const after = await countSolves(server, prepared.event);
    const correctAnswers = results
      .filter((r) => SUBMITTING.includes(r.scenario))
      .reduce((n, r) => n + r.correct, 0);
    const wrongAnswers = results.reduce((n, r) => n + r.wrong, 0);
    // Every attempt goes to the submission log (issue 18: the flag scenarios run with it on).
    const logged = results.some((r) => r.wrong > 0) ? await settledLog(prepared.env, wrongAnswers) : null;
    const rss = peakRssMb(server.process.pid!);
    await stopServer(server, opts);
    if (logged) {
      opts.log?.(
        `  submission log: ${logged.wrong ?? 0} wrong attempts logged, ${wrongAnswers} acknowledged`,
      );
    }

    let workers2Mixed: LoadResult | null = null;
    if (opts.workers) {
      const w = await startServer({ ...prepared.env, LOG_LEVEL: 'warn', WORKERS: '2' });
      const c = Math.max(...opts.connections);
      const etag = await currentListEtag(w.url);
      const make = requestMaker('mixed', prepared.event, w.url, etag);
      workers2Mixed = await measure(baseline, `http://127.0.0.1:${w.port}`, 'mixed', make, c, opts, hello);
      opts.log?.(
        `  mixed @${c} WORKERS=2: ${Math.round(workers2Mixed.requestsPerSec)} req/s (hello ${Math.round(workers2Mixed.hello)})`,
      );
      await w.stop();
    }
    const streams =
      database === 'sqlite' && opts.streams > 0
        ? await benchStreams(baseline, prepared.env, prepared.event, opts, hello)
        : null;
    const instances =
      database === 'sqlite'
        ? await benchInstances(baseline, prepared.env, prepared.event, opts, hello)
        : null;
    return {
      database,
      startupMs,
      peakRssMb: rss,
      results,
      solvesRecorded: after - before,
      correctAnswers,
      workers2Mixed,
      double: [],
      refresh,
      wrongAnswers,
      logged,
      boardCost: prepared.boardCost,
      doubleBoardCost: null,
      streams,
      instances,
      archive,
    };
  } finally {
    await prepared.cleanup();
  }
}

function logBoardCost(opts: BenchOptions, what: string, b: BoardCost): void {
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');
  opts.log?.(
    `  ${what} board cost at ${b.solves} solves: rebuild ${f(b.rebuildMs)} ms; a correct flag ${f(b.flagMs)} ms, board update ${f(b.updateMs)} ms, answer ${f(b.answerMs)} ms; apply static ${f(b.applyStaticMs)} ms, dynamic ${f(b.applyDynamicMs)} ms`,
  );
}

/**
 * Issue 15: one server process with `opts.streams` open live event streams (from a client process
 * of their own, loopback, no per-address limit). An admin's announcement must reach every stream
 * within 1 s, the process's peak RSS stay under 250 MB, and the mixed profile with the streams open
 * stay within 10% of its figure without them (each paired with hello-world as usual).
 */
async function benchStreams(
  baseline: Baseline,
  env: Record<string, string>,
  event: SeededEvent,
  opts: BenchOptions,
  hello: LoadResult[],
): Promise<StreamsRun> {
  const server = await startServer({ ...env, LOG_LEVEL: 'warn', EVENT_STREAMS_PER_ADDRESS: '0' });
  const client = await StreamsClient.start();
  try {
    const pid = server.process.pid!;
    const loopback = `http://127.0.0.1:${server.port}`;
    const c = Math.max(...opts.connections);
    const mixed = () => requestMaker('mixed', event, server.url, '');
    const mixedWithout = await measure(baseline, loopback, 'mixed', mixed(), c, opts, hello);
    logLine(opts, 'streams leg, no stream open: ', mixedWithout);
    const cookie = `ctf_session=${event.adminToken}`;
    const firstAnnouncement = await client.announce(
      loopback,
      server.url,
      cookie,
      'Benchmark announcement 0',
      30_000,
    );
    opts.log?.(
      `  first announcement of the process (no stream open): POST ${firstAnnouncement.status} in ${firstAnnouncement.postMs.toFixed(1)} ms`,
    );
    const rssBeforeMb = currentRssMb(pid);
    const opened = await client.open(loopback, opts.streams, 120_000);
    const rssOpenMb = currentRssMb(pid);
    opts.log?.(
      `  ${opened.open} of ${opts.streams} streams open in ${Math.round(opened.ms)} ms (${JSON.stringify(opened.statuses)}); server RSS ${rssBeforeMb.toFixed(1)} -> ${rssOpenMb.toFixed(1)} MB`,
    );
    const announcements: StreamsRun['announcements'] = [];
    for (let i = 0; i < 3; i++) {
      const title = `Benchmark announcement ${i + 1} ${Math.random().toString(36).slice(2, 10)}`;
      const a = await client.announce(loopback, server.url, cookie, title, 10_000);
      opts.log?.(
        `  announcement ${i + 1}: POST ${a.status} in ${a.postMs.toFixed(1)} ms; ${a.received} of ${a.expected} streams had it after ${a.ms.toFixed(1)} ms`,
      );
      announcements.push(a);
    }
    const mixedWith = await measure(baseline, loopback, 'mixed', mixed(), c, opts, hello);
    logLine(opts, `streams leg, ${opened.open} streams open: `, mixedWith);
    const after = await client.stats();
    const peak = peakRssMb(pid);
    opts.log?.(`  ${after.open} streams still open after the load; server peak RSS ${peak.toFixed(1)} MB`);
    return {
      requested: opts.streams,
      opened,
      rssBeforeMb,
      rssOpenMb,
      firstAnnouncement,
      announcements,
      mixedWithout,
      mixedWith,
      openAfter: after.open,
      closedByServer: after.closedByServer,
      peakRssMb: peak,
    };
  } finally {
    await client.close();
    await stopServer(server, opts);
  }
}

/** Issue 16: the base event with half the challenges dynamic: the list, the board and the graph. */
async function benchDynamic(
  baseline: Baseline,
  opts: BenchOptions,
  hello: LoadResult[],
): Promise<DynamicRun | null> {
  if (!opts.dynamic) return null;
  opts.log?.(`sqlite: seeding the event with half the challenges dynamic`);
  const prepared = await prepare('sqlite', opts.size, { scoring: 'half', boardCost: opts.boardCost });
  if (prepared.boardCost) logBoardCost(opts, 'dynamic', prepared.boardCost);
  try {
    const server = await startServer({ ...prepared.env, LOG_LEVEL: 'warn' });
    const c = Math.max(...opts.connections);
    const results: LoadResult[] = [];
    try {
      for (const name of ['visitor-list', 'leaderboard', 'graph'] as const) {
        const make = requestMaker(name, prepared.event, server.url, '');
        const r = await measure(baseline, `http://127.0.0.1:${server.port}`, name, make, c, opts, hello);
        logLine(opts, 'dynamic ', r);
        results.push(r);
      }
    } finally {
      await stopServer(server, opts);
    }
    return { results, boardCost: prepared.boardCost };
  } finally {
    await prepared.cleanup();
  }
}

async function benchDouble(
  baseline: Baseline,
  opts: BenchOptions,
  hello: LoadResult[],
): Promise<{ results: LoadResult[]; boardCost: BoardCost | null }> {
  if (!opts.doubleSize) return { results: [], boardCost: null };
  opts.log?.(
    `sqlite: seeding the doubled event (${opts.doubleSize.users} users, ${opts.doubleSize.solves} solves)`,
  );
  const prepared = await prepare('sqlite', opts.doubleSize, { boardCost: opts.boardCost });
  if (prepared.boardCost) logBoardCost(opts, 'doubled', prepared.boardCost);
  try {
    const server = await startServer({ ...prepared.env, LOG_LEVEL: 'warn' });
    const c = Math.max(...opts.connections);
    const out: LoadResult[] = [];
    for (const name of ['visitor-list', 'leaderboard'] as const) {
      const make = requestMaker(name, prepared.event, server.url, '');
      const r = await measure(baseline, `http://127.0.0.1:${server.port}`, name, make, c, opts, hello);
      opts.log?.(
        `  double ${name} @${c}: ${Math.round(r.requestsPerSec)} req/s (hello ${Math.round(r.hello)})`,
      );
      out.push(r);
    }
    await server.stop();
    return { results: out, boardCost: prepared.boardCost };
  } finally {
    await prepared.cleanup();
  }
}

/** The whole benchmark: hello-world baseline, every scenario on each database, scale and growth. */
export async function runBench(opts: BenchOptions): Promise<BenchReport> {
  const baseline = await startHello();
  const hello: LoadResult[] = [];
  const runs: DatabaseRun[] = [];
  let double: Awaited<ReturnType<typeof benchDouble>> = { results: [], boardCost: null };
  let dynamic: DynamicRun | null = null;
  let rush: RushRun | null = null;
  try {
    for (const d of opts.databases) runs.push(await benchDatabase(baseline, d, opts, hello));
    double = await benchDouble(baseline, opts, hello);
    dynamic = await benchDynamic(baseline, opts, hello);
    if (opts.rush) rush = await benchRush(opts, opts.rush);
  } finally {
    baseline.stop();
  }
  const sqliteRun = runs.find((r) => r.database === 'sqlite');
  if (sqliteRun) {
    sqliteRun.double = double.results;
    sqliteRun.doubleBoardCost = double.boardCost;
  }
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`,
    hello,
    runs,
    dynamic,
    rush,
    options: opts,
  };
}
