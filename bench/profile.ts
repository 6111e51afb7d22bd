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
// BENCH_PROFILE_FILE: only read a profile written before (e.g. by the rush's server through
// BENCH_NODE_OPTIONS='--cpu-prof --cpu-prof-dir=DIR'), over its whole length.
const given = process.env.BENCH_PROFILE_FILE;
let requests = Number(process.env.BENCH_REQUESTS ?? 1);
let stopMs = 0;
let dir = given ? path.dirname(given) : '';
if (!given) {
  const prepared = await prepare('sqlite', process.env.BENCH_EVENT === 'tiny' ? TINY_EVENT : BASE_EVENT);
  dir = mkdtempSync(path.join(tmpdir(), 'ctf-profile-'));
  const server = await startServer({
    ...prepared.env,
    LOG_LEVEL: 'warn',
    NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}`,
  });
  try {
    const etag = await currentListEtag(server.url);
    const make = requestMaker(scenario, prepared.event, server.url, etag, await boardSize(server.url));
    // Warm-up: every kept per-player answer is built once (as a running event's would have been),
    // so the profile below is of the steady state: only its last `seconds` are counted.
    await autocannon({
      url: `http://127.0.0.1:${server.port}`,
      connections: 100,
      duration: Math.max(3, seconds / 2),
      requests: [{ setupRequest: (req: any) => ({ ...req, ...make() }) } as any],
    });
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
    const t0 = Date.now();
    await server.stop();
    stopMs = Date.now() - t0;
    await prepared.cleanup();
  }
}
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
const file = given ? path.basename(given) : readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
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
// Only the samples of the measured load (the profile ends when the server exits): hit counts
// recounted from the samples taken in the last `seconds` before the stop began.
const from = given ? profile.startTime : profile.endTime - (seconds * 1000 + stopMs) * 1000;
const to = given ? profile.endTime : profile.endTime - stopMs * 1000;
const hitsOf = new Map<number, number>();
let at = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i]!;
  if (at >= from && at <= to) hitsOf.set(profile.samples[i]!, (hitsOf.get(profile.samples[i]!) ?? 0) + 1);
}
for (const n of profile.nodes) n.hitCount = hitsOf.get(n.id) ?? 0;
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
  `profile: ${[...hitsOf.values()].reduce((a, b) => a + b, 0)} samples in the measured ${seconds} s, of ${profile.samples.length} of ~${sampleUs.toFixed(0)} µs; busy (not idle, not program) ${perRequest(busy)} µs a request over ${requests} requests\n\nself time, µs a request:\n`,
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
// Who calls the frames named in BENCH_CALLERS: their self time by the chain of 6 callers above.
const callees = (process.env.BENCH_CALLERS ?? '').split(',').filter(Boolean);
if (callees.length > 0) {
  const parent = new Map<number, ProfileNode>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n);
  for (const f of callees) {
    const chains = new Map<string, number>();
    for (const n of profile.nodes) {
      if (!(n.hitCount ?? 0) || !label(n).includes(f)) continue;
      const chain: string[] = [];
      for (let p = parent.get(n.id); p && chain.length < 12; p = parent.get(p.id)) chain.push(label(p));
      chains.set(chain.join(' < '), (chains.get(chain.join(' < ')) ?? 0) + n.hitCount!);
    }
    process.stdout.write(`\ncallers of ${f}, µs a request:\n`);
    for (const [chain, hits] of [...chains].sort((a, b) => b[1] - a[1]).slice(0, 8))
      process.stdout.write(`  ${perRequest(hits).padStart(7)}  ${chain}\n`);
  }
}
process.exit(0);
