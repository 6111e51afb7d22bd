import autocannon from 'autocannon';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer } from '../e2e/support/server.js';
import { prepare } from './harness.js';
import { currentListEtag, requestMaker, type ScenarioName } from './load.js';
import { boardSize } from './pages.js';
import { BASE_EVENT, TINY_EVENT } from './seed.js';

/**
 * Where a scenario's server time goes: the base event seeded on SQLite, the built server started
 * with `--cpu-prof`, one scenario at 100 connections for BENCH_SECONDS (10), then the profile's
 * self time by function (top 40) and the time under each of a few frames of interest.
 *
 *   BENCH_PROFILE=signed-in-list BENCH_SECONDS=10 npx tsx bench/profile.ts
 *
 * The per-request microseconds are the profile's busy time over the requests answered.
 */
const scenario = (process.env.BENCH_PROFILE ?? 'signed-in-list') as ScenarioName;
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const prepared = await prepare('sqlite', process.env.BENCH_EVENT === 'tiny' ? TINY_EVENT : BASE_EVENT);
const dir = mkdtempSync(path.join(tmpdir(), 'ctf-profile-'));
const server = await startServer({
  ...prepared.env,
  LOG_LEVEL: 'warn',
  NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}`,
});
let requests = 0;
try {
  const etag = await currentListEtag(server.url);
  const make = requestMaker(scenario, prepared.event, server.url, etag, await boardSize(server.url));
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}`,
    connections: 100,
    duration: seconds,
    requests: [{ setupRequest: (req: any) => ({ ...req, ...make() }) } as any],
  });
  requests = result.requests.total;
  process.stdout.write(
    `${scenario}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, errors ${result.errors}, non-2xx ${result.non2xx}\n`,
  );
} finally {
  await server.stop();
  await prepared.cleanup();
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error('no profile written (the server did not exit cleanly)');
const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
};
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const sampleUs = (profile.endTime - profile.startTime) / Math.max(1, profile.samples.length);
const label = (n: ProfileNode) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules|dist|src)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
const self = new Map<string, number>();
let busy = 0;
for (const n of profile.nodes) {
  const hits = n.hitCount ?? 0;
  if (hits === 0) continue;
  self.set(label(n), (self.get(label(n)) ?? 0) + hits);
  if (n.callFrame.functionName !== '(idle)' && n.callFrame.functionName !== '(program)') busy += hits;
}
const perRequest = (hits: number) => ((hits * sampleUs) / Math.max(1, requests)).toFixed(2);
process.stdout.write(
  `profile: ${profile.samples.length} samples of ~${sampleUs.toFixed(0)} µs; busy (not idle, not program) ${perRequest(busy)} µs a request over ${requests} requests\n\nself time, µs a request:\n`,
);
for (const [name, hits] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
  process.stdout.write(`  ${perRequest(hits).padStart(7)}  ${name}\n`);
}
// Total (inclusive) time under frames whose name matches BENCH_FRAMES (comma list of substrings).
const frames = (process.env.BENCH_FRAMES ?? '').split(',').filter(Boolean);
if (frames.length > 0) {
  const total = (n: ProfileNode): number =>
    (n.hitCount ?? 0) + (n.children ?? []).reduce((s, c) => s + total(byId.get(c)!), 0);
  process.stdout.write('\ninclusive time, µs a request:\n');
  for (const f of frames) {
    // Outermost matches only, so recursion is not counted twice.
    let hits = 0;
    const walk = (n: ProfileNode, inside: boolean) => {
      const match = !inside && label(n).includes(f);
      if (match) hits += total(n);
      for (const c of n.children ?? []) walk(byId.get(c)!, inside || match);
    };
    walk(profile.nodes[0]!, false);
    process.stdout.write(`  ${perRequest(hits).padStart(7)}  ${f}\n`);
  }
}
process.exit(0);
