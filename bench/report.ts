import { sliceCount, type LoadResult } from './load.js';
import type { BenchReport } from './run.js';

/** The targets of the performance issue, as ratios to the bare Fastify server at 100 connections. */
export const TARGETS = {
  list: 0.5,
  leaderboard: 0.5,
  'leaderboard-page': 0.5,
  /** One open leaderboard page's refresh at the base event, compressed, headers included. */
  refreshBytes: 4096,
  info: 0.3,
  submit: 0.2,
  /** Wrong flags only, each written to the submission log (issue 18). */
  'wrong-flag': 0.15,
  mixed: 0.35,
  p99ListMs: 20,
  peakRssMb: 200,
  startupMs: 1000,
  postgresShare: 0.5,
  workersScale: 1.6,
  growthTolerance: 0.2,
} as const;

/**
 * Each acknowledged correct answer must be recorded (solves are unique per user and challenge, so
 * never twice); answers still in flight when a slice of load stops may be recorded
 * unacknowledged, at most one per connection at each stop of the two submitting scenarios.
 */
function recordedOnce(
  run: {
    solvesRecorded: number;
    correctAnswers: number;
    results: { scenario: string; connections: number }[];
  },
  durationSec: number,
): boolean {
  const stops = sliceCount(durationSec);
  const inFlight = run.results
    .filter((r) => r.scenario === 'submit' || r.scenario === 'mixed')
    .reduce((n, r) => n + r.connections * stops, 0);
  return run.solvesRecorded >= run.correctAnswers && run.solvesRecorded - run.correctAnswers <= inFlight;
}

const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

export function formatReport(report: BenchReport): string {
  const ratioOf = (r: LoadResult | undefined) => (r ? r.requestsPerSec / r.hello : NaN);
  const maxC = Math.max(...report.options.connections);
  const lines: string[] = [];
  lines.push('# Benchmark results', '');
  lines.push(`- Date: ${report.date}`);
  lines.push(`- Machine: ${report.machine}`);
  lines.push(
    `- Event: ${report.options.size.users} users, ${report.options.size.teams} teams, ${report.options.size.challenges} challenges, ${report.options.size.solves} solves, ${report.options.size.files} files; ${report.options.durationSec} s per scenario`,
  );
  lines.push(
    `- Command: \`npm run bench\` (load from autocannon in the runner process, server in its own process, loopback only)`,
    '',
  );
  lines.push(
    '## Baseline: bare Fastify hello-world',
    '',
    'Measured with every scenario at the same connections, in 1 s slices interleaved with the',
    "scenario's (B S S B B S ...); each ratio below is to its own interleaved baseline, so the",
    "machine's swings in speed during the run (a shared host) move both sides of a ratio together.",
    '',
    '| connections | measurements | lowest req/s | median req/s | highest req/s | median p99 ms |',
    '| --- | --- | --- | --- | --- | --- |',
  );
  for (const c of report.options.connections) {
    const runs = report.hello.filter((h) => h.connections === c);
    const rps = runs.map((h) => h.requestsPerSec).sort((a, b) => a - b);
    const p99 = runs.map((h) => h.p99).sort((a, b) => a - b);
    const mid = <T>(xs: T[]) => xs[Math.floor(xs.length / 2)];
    lines.push(
      `| ${c} | ${runs.length} | ${fmt(rps[0] ?? NaN)} | ${fmt(mid(rps) ?? NaN)} | ${fmt(rps[rps.length - 1] ?? NaN)} | ${mid(p99) ?? 'n/a'} |`,
    );
  }
  const sqliteRun = report.runs.find((r) => r.database === 'sqlite');
  for (const run of report.runs) {
    lines.push('', `## ${run.database === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, one process`, '');
    lines.push(
      `Start-up to ready with the event loaded: ${run.startupMs} ms. Peak RSS: ${fmt(run.peakRssMb, 1)} MB.`,
    );
    lines.push(
      `Correct answers acknowledged in the submission scenarios: ${run.correctAnswers}; solves recorded: ${run.solvesRecorded} (${recordedOnce(run, report.options.durationSec) ? 'every acknowledged answer recorded once; the difference is answers still in flight when a slice of load stopped' : 'MISMATCH'}).`,
      '',
    );
    lines.push(
      '| scenario | connections | req/s | hello req/s | ratio to hello | p50 ms | p99 ms | non-2xx | errors |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    );
    for (const r of run.results) {
      lines.push(
        `| ${r.scenario} | ${r.connections} | ${fmt(r.requestsPerSec)} | ${fmt(r.hello)} | ${fmt(ratioOf(r), 2)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} |`,
      );
    }
    if (run.refresh) {
      const r = run.refresh;
      lines.push(
        '',
        `Leaderboard page refresh at ${r.competitors} competitors (the podium's page and the two pages a scrolled list can straddle, Brotli): ${r.requests} requests, ${r.bodyBytes} bytes of bodies + ${r.headerBytes} bytes of headers = ${r.bodyBytes + r.headerBytes} bytes; the whole board is ${r.wholeBoardBytes} bytes.`,
      );
    }
    if (run.workers2Mixed) {
      const one = run.results.find(
        (r) => r.scenario === 'mixed' && r.connections === run.workers2Mixed!.connections,
      );
      const w = run.workers2Mixed;
      lines.push(
        '',
        `WORKERS=2, mixed profile @${w.connections}: ${fmt(w.requestsPerSec)} req/s (hello ${fmt(w.hello)}, ratio ${fmt(ratioOf(w), 2)}) = ${fmt(ratioOf(w) / ratioOf(one), 2)}x one process.`,
      );
    }
    if (run.double.length) {
      lines.push('', 'Doubled event (cost growth), ratios to hello at the same connections:', '');
      for (const d of run.double) {
        const base = run.results.find((r) => r.scenario === d.scenario && r.connections === d.connections);
        const rb = ratioOf(base);
        const rd = ratioOf(d);
        lines.push(
          `- ${d.scenario}: base ${fmt(rb, 2)}, doubled ${fmt(rd, 2)} (${fmt(((rd - rb) / rb) * 100, 0)}%)`,
        );
      }
    }
  }
  lines.push('', '## Targets', '', '| target | measured | met |', '| --- | --- | --- |');
  const at = (run: typeof sqliteRun, s: string): LoadResult | undefined =>
    run?.results.find((r) => r.scenario === s && r.connections === maxC);
  const ratio = (run: typeof sqliteRun, s: string) => ratioOf(at(run, s));
  const check = (name: string, value: number, ok: boolean, d = 2) =>
    lines.push(`| ${name} | ${fmt(value, d)} | ${ok ? 'yes' : 'NO'} |`);
  if (sqliteRun) {
    for (const s of ['list', 'leaderboard', 'leaderboard-page', 'info', 'submit', 'wrong-flag', 'mixed'] as const) {
      if (!at(sqliteRun, s)) continue;
      check(
        `SQLite ${s} @${maxC} >= ${TARGETS[s]} of hello`,
        ratio(sqliteRun, s),
        ratio(sqliteRun, s) >= TARGETS[s],
      );
    }
    for (const s of ['list', 'leaderboard'] as const) {
      const p99 = at(sqliteRun, s)?.p99 ?? NaN;
      check(`SQLite ${s} p99 < ${TARGETS.p99ListMs} ms`, p99, p99 < TARGETS.p99ListMs, 0);
    }
    if (sqliteRun.refresh) {
      const bytes = sqliteRun.refresh.bodyBytes + sqliteRun.refresh.headerBytes;
      check(
        `leaderboard page refresh < ${TARGETS.refreshBytes} bytes at ${sqliteRun.refresh.competitors} competitors`,
        bytes,
        bytes < TARGETS.refreshBytes,
        0,
      );
    }
    check(
      `peak RSS < ${TARGETS.peakRssMb} MB`,
      sqliteRun.peakRssMb,
      sqliteRun.peakRssMb < TARGETS.peakRssMb,
      1,
    );
    check(
      `start-up < ${TARGETS.startupMs} ms`,
      sqliteRun.startupMs,
      sqliteRun.startupMs < TARGETS.startupMs,
      0,
    );
    check(
      'acknowledged correct answers recorded exactly once',
      sqliteRun.solvesRecorded,
      recordedOnce(sqliteRun, report.options.durationSec),
      0,
    );
    if (sqliteRun.workers2Mixed) {
      const k = ratioOf(sqliteRun.workers2Mixed) / ratio(sqliteRun, 'mixed');
      check(`WORKERS=2 mixed >= ${TARGETS.workersScale}x`, k, k >= TARGETS.workersScale);
    }
    for (const d of sqliteRun.double) {
      const rb = ratio(sqliteRun, d.scenario);
      const rd = ratioOf(d);
      check(
        `doubled event ${d.scenario} within 20% of base`,
        rd / rb,
        rd / rb >= 1 - TARGETS.growthTolerance,
      );
    }
  }
  const pgRun = report.runs.find((r) => r.database === 'postgres');
  if (pgRun && sqliteRun) {
    for (const s of ['list', 'leaderboard', 'leaderboard-page', 'info', 'submit', 'mixed'] as const) {
      if (!at(pgRun, s) || !at(sqliteRun, s)) continue;
      const share = ratio(pgRun, s) / ratio(sqliteRun, s);
      check(`PostgreSQL ${s} >= half of SQLite (ratios to hello)`, share, share >= TARGETS.postgresShare);
    }
  }
  return lines.join('\n') + '\n';
}
