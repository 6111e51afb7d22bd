import type { BoardCost } from './board-cost.js';
import { archiveChecks, archiveSection } from './archive.js';
import { firstViewCheck } from './first-view.js';
import { instancesSection } from './instances.js';
import { rushChecks, rushSection } from './rush-leg.js';
import { SUBMITTING, sliceCount, type LoadResult, type ScenarioName } from './load.js';
import type { BenchReport, StreamsRun } from './results.js';

/** The targets of the performance issue, as ratios to the bare Fastify server at 100 connections. */
export const TARGETS = {
  /** A visitor's list: no session, one shared answer for everyone. */
  'visitor-list': 0.5,
  /** What a signed-in player's challenge page asks (the list, their solved marks). */
  'signed-in-list': 0.7,
  leaderboard: 0.5,
  'leaderboard-page': 0.7,
  /** The score graph of the top 10 (issue 16). */
  graph: 0.3,
  /** One open leaderboard page's refresh at the base event, compressed, headers included. */
  refreshBytes: 4096,
  info: 0.7,
  submit: 0.2,
  /** Wrong flags only, each written to the submission log (issue 18). */
  'wrong-flag': 0.3,
  /** The submit path on challenges with three regex flags beside the static one (issue 17). */
  'regex-submit': 0.2,
  mixed: 0.35,
  p99ListMs: 20,
  peakRssMb: 200,
  startupMs: 1000,
  postgresShare: 0.5,
  workersScale: 1.6,
  growthTolerance: 0.2,
  /** Half the challenges dynamic (issue 16), ratios to hello at 100 connections. */
  dynamic: { 'visitor-list': 0.5, leaderboard: 0.5, graph: 0.3 },
  /** A correct flag's board update against a rebuild of every solve (issue 16: O(what changed)). */
  boardUpdateShareOfRebuild: 0.1,
  /** Issue 15: open live event streams on one process. */
  streams: 2000,
  streamsPeakRssMb: 250,
  announcementMs: 1000,
  /** The mixed profile with the streams open, as a share of its figure without them. */
  mixedWithStreams: 0.9,
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
    results: { scenario: ScenarioName; connections: number }[];
  },
  durationSec: number,
): boolean {
  const stops = sliceCount(durationSec);
  const inFlight = run.results
    .filter((r) => SUBMITTING.includes(r.scenario))
    .reduce((n, r) => n + r.connections * stops, 0);
  return run.solvesRecorded >= run.correctAnswers && run.solvesRecorded - run.correctAnswers <= inFlight;
}

const fmtMs = (n: number) => (Number.isFinite(n) ? (n < 1 ? n.toFixed(3) : n.toFixed(1)) : 'n/a');

/** One event's row of the board-cost table (board-cost.ts). */
function boardCostRow(event: string, b: BoardCost): string {
  return `| ${event} | ${b.solves} | ${b.competitors} | ${fmtMs(b.rebuildMs)} (${fmtMs(b.buildInMemoryMs)} in memory) | ${fmtMs(b.flagMs)} | ${fmtMs(b.updateMs)} | ${fmtMs(b.answerMs)} | ${fmtMs(b.applyStaticMs)} | ${Number.isFinite(b.applyDynamicMs) ? `${fmtMs(b.applyDynamicMs)} (${b.dynamicSolvers} solvers)` : '-'} |`;
}

/** The stream leg's paragraph (issue 15). */
function streamsSection(s: StreamsRun, ratioOf: (r: LoadResult) => number): string[] {
  const worst = Math.max(...s.announcements.map((a) => (a.received === a.expected ? a.ms : Infinity)));
  const share = ratioOf(s.mixedWith) / ratioOf(s.mixedWithout);
  return [
    '',
    `### Live event streams (issue 15): ${s.opened.open} of ${s.requested} open on one process`,
    '',
    'A fresh server process on the same database with EVENT_STREAMS_PER_ADDRESS=0; the streams',
    '(`GET /api/events`) come from a client process of their own over loopback, so reading their',
    "events never slows the runner's load generator (the three processes share the two cores).",
    '',
    `- Opened in ${fmt(s.opened.ms)} ms (answers: ${Object.entries(s.opened.statuses)
      .map(([k, v]) => `${v} x ${k}`)
      .join(
        ', ',
      )}); server RSS ${fmt(s.rssBeforeMb, 1)} MB before, ${fmt(s.rssOpenMb, 1)} MB with them open.`,
    `- The process's first announcement, before the streams opened (its first admin write): POST answered ${s.firstAnnouncement.status} in ${fmt(s.firstAnnouncement.postMs, 1)} ms.`,
    `- An admin's announcement (POST /api/admin/announcements/create) to the last stream receiving it: ${s.announcements
      .map(
        (a) =>
          `${fmt(a.ms, 1)} ms (${a.received}/${a.expected} streams, POST answered ${a.status} in ${fmt(a.postMs, 1)} ms)`,
      )
      .join('; ')}. Worst: ${fmt(worst, 1)} ms.`,
    `- Mixed profile @${s.mixedWith.connections}, ratios to hello-world: ${fmt(ratioOf(s.mixedWithout), 2)} without streams (${fmt(s.mixedWithout.requestsPerSec)} req/s, p99 ${s.mixedWithout.p99} ms), ${fmt(ratioOf(s.mixedWith), 2)} with them open (${fmt(s.mixedWith.requestsPerSec)} req/s, p99 ${s.mixedWith.p99} ms): ${fmt(share * 100, 0)}% of the figure without.`,
    `- Streams still open after the load: ${s.openAfter} (closed by the server: ${s.closedByServer}). Peak RSS of the server over the leg: ${fmt(s.peakRssMb, 1)} MB.`,
  ];
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
    if (run.logged) {
      const logged = Object.entries(run.logged)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ');
      lines.push(
        '',
        `Submission log (issue 18, on as always): ${run.wrongAnswers} 'Incorrect Flag!' answers acknowledged in the flag scenarios; rows in the log after them: ${logged}.`,
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
  for (const run of report.runs) if (run.streams) lines.push(...streamsSection(run.streams, ratioOf));
  for (const run of report.runs) if (run.instances) lines.push(...instancesSection(run.instances));
  for (const run of report.runs) if (run.archive) lines.push(...archiveSection(run.archive));
  if (report.rush) lines.push(...rushSection(report.rush));

  const dyn = report.dynamic;
  if (dyn) {
    lines.push(
      '',
      '## Dynamic scoring (issue 16): half the challenges dynamic, SQLite',
      '',
      'The base event seeded with every other challenge dynamic (linear and logarithmic in turn), so',
      'that each correct flag on one of them moves its value and the score of every solver of it.',
      '',
      '| scenario | connections | req/s | hello req/s | ratio to hello | p50 ms | p99 ms | non-2xx | errors |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    );
    for (const r of dyn.results) {
      lines.push(
        `| ${r.scenario} | ${r.connections} | ${fmt(r.requestsPerSec)} | ${fmt(r.hello)} | ${fmt(ratioOf(r), 2)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} |`,
      );
    }
  }
  const costs: [string, BoardCost][] = [];
  for (const run of report.runs) {
    const db = run.database === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    if (run.boardCost) costs.push([`${db}, base`, run.boardCost]);
    if (run.doubleBoardCost) costs.push([`${db}, doubled`, run.doubleBoardCost]);
  }
  if (dyn?.boardCost) costs.push(['SQLite, half dynamic', dyn.boardCost]);
  if (costs.length) {
    lines.push(
      '',
      '## What a correct flag costs the scoreboard (issue 16)',
      '',
      'In-process on each freshly seeded event, no load running (bench/board-cost.ts); medians over',
      `${costs[0]![1].samples} correct flags on unsolved challenges, the most solved first. Rebuild: reading every solve and`,
      "building the board, what a rebuild would cost. Correct flag: submitFlag's own time. Board",
      'update: the live board brought up to date after it (the solve feed read and applied). Answer:',
      "the leaderboard's answer made again from it. Apply: the in-memory apply of one solve alone;",
      "on a dynamic challenge it re-totals every competitor credited with it (the challenge's solvers).",
      '',
      '| event | solves | competitors | rebuild ms | correct flag ms | board update ms | answer ms | apply, static ms | apply, dynamic ms |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    );
    for (const [event, b] of costs) lines.push(boardCostRow(event, b));
    const base = sqliteRun?.boardCost;
    const doubled = sqliteRun?.doubleBoardCost;
    if (base && doubled) {
      lines.push(
        '',
        `From the base event to the doubled one (SQLite, ${base.solves} -> ${doubled.solves} solves): a rebuild x${fmt(doubled.rebuildMs / base.rebuildMs, 2)}, a correct flag x${fmt(doubled.flagMs / base.flagMs, 2)}, its board update x${fmt(doubled.updateMs / base.updateMs, 2)}, the in-memory apply of a static solve x${fmt(doubled.applyStaticMs / base.applyStaticMs, 2)}.`,
      );
    }
  }

  lines.push('', '## Targets', '', '| target | measured | met |', '| --- | --- | --- |');
  const at = (run: typeof sqliteRun, s: string): LoadResult | undefined =>
    run?.results.find((r) => r.scenario === s && r.connections === maxC);
  const ratio = (run: typeof sqliteRun, s: string) => ratioOf(at(run, s));
  const check = (name: string, value: number, ok: boolean, d = 2) =>
    lines.push(`| ${name} | ${fmt(value, d)} | ${ok ? 'yes' : 'NO'} |`);
  if (sqliteRun) {
    for (const s of [
      'visitor-list',
      'signed-in-list',
      'leaderboard',
      'leaderboard-page',
      'graph',
      'info',
      'submit',
      'wrong-flag',
      'regex-submit',
      'mixed',
    ] as const) {
      if (!at(sqliteRun, s)) continue;
      check(
        `SQLite ${s} @${maxC} >= ${TARGETS[s]} of hello`,
        ratio(sqliteRun, s),
        ratio(sqliteRun, s) >= TARGETS[s],
      );
    }
    const firstView = firstViewCheck((s) => ratio(sqliteRun, s), maxC);
    if (firstView) check(...firstView);
    for (const s of ['visitor-list', 'leaderboard'] as const) {
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
    if (sqliteRun.logged) {
      const wrong = sqliteRun.logged.wrong ?? 0;
      check(
        `every acknowledged wrong attempt in the submission log (${sqliteRun.wrongAnswers} acknowledged)`,
        wrong,
        wrong >= sqliteRun.wrongAnswers,
        0,
      );
    }
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
  if (sqliteRun?.archive)
    for (const [name, value, ok] of archiveChecks(sqliteRun.archive)) check(name, value, ok, 1);
  if (report.rush) for (const [name, value, ok] of rushChecks(report.rush)) check(name, value, ok, 1);
  const streams = sqliteRun?.streams;
  if (streams) {
    const n = `${streams.opened.open} open streams`;
    check(
      `${n} (of ${TARGETS.streams} required): server peak RSS < ${TARGETS.streamsPeakRssMb} MB`,
      streams.peakRssMb,
      streams.opened.open >= TARGETS.streams && streams.peakRssMb < TARGETS.streamsPeakRssMb,
      1,
    );
    const worst = Math.max(
      ...streams.announcements.map((a) => (a.received === a.expected ? a.ms : Infinity)),
    );
    check(
      `${n}: an announcement reaches every stream < ${TARGETS.announcementMs} ms (worst of ${streams.announcements.length})`,
      worst,
      worst < TARGETS.announcementMs,
      1,
    );
    const share = ratioOf(streams.mixedWith) / ratioOf(streams.mixedWithout);
    check(
      `${n}: mixed @${streams.mixedWith.connections} >= ${TARGETS.mixedWithStreams} of its ratio without them, none dropped`,
      share,
      share >= TARGETS.mixedWithStreams && streams.openAfter === streams.opened.open,
    );
  }
  if (dyn) {
    for (const r of dyn.results) {
      const s = r.scenario as keyof typeof TARGETS.dynamic;
      if (!(s in TARGETS.dynamic)) continue;
      check(
        `half dynamic: SQLite ${s} @${r.connections} >= ${TARGETS.dynamic[s]} of hello`,
        ratioOf(r),
        ratioOf(r) >= TARGETS.dynamic[s],
      );
    }
  }
  for (const [event, b] of costs) {
    const share = b.updateMs / b.rebuildMs;
    check(
      `${event}: a correct flag's board update (${fmtMs(b.updateMs)} ms) < ${TARGETS.boardUpdateShareOfRebuild} of a rebuild (${fmtMs(b.rebuildMs)} ms)`,
      share,
      share < TARGETS.boardUpdateShareOfRebuild,
      3,
    );
  }
  const pgRun = report.runs.find((r) => r.database === 'postgres');
  if (pgRun && sqliteRun) {
    for (const s of [
      'visitor-list',
      'signed-in-list',
      'leaderboard',
      'leaderboard-page',
      'info',
      'submit',
      'mixed',
    ] as const) {
      if (!at(pgRun, s) || !at(sqliteRun, s)) continue;
      const share = ratio(pgRun, s) / ratio(sqliteRun, s);
      check(`PostgreSQL ${s} >= half of SQLite (ratios to hello)`, share, share >= TARGETS.postgresShare);
    }
  }
  return lines.join('\n') + '\n';
}
