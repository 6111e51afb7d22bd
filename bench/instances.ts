import { nameKey } from '@ctf/contract';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { createSession } from '../server/src/modules/auth/sessions.service.js';
import { createChallenge } from '../server/src/modules/challenges/challenges.service.js';
import { LABELS } from '../server/src/modules/instances/driver.js';
import { updateSettings } from '../server/src/modules/settings/settings.service.js';
import { SYSTEM_ACTOR } from '../server/src/modules/audit/audit.service.js';
import { startServer } from '../e2e/support/server.js';
import { dockerEngine, engineRequest, type DockerEngine } from '../server/test/docker.js';
import { logLine, measure, stopServer, type Baseline } from './harness.js';
import { BROWSER_HEADERS, requestMaker, type LoadResult } from './load.js';
import type { BenchOptions, InstancesRun } from './results.js';
import type { SeededEvent } from './seed.js';

/**
 * Issue 30: 30 teams starting their instances at once must not move the site's request figures.
 * On the seeded event plus one instance challenge (the flag-service image the tests use), the
 * leaderboard is measured (paired with hello-world as usual) with no instance starting, then again
 * while 30 competitors press Start at once and poll their instance as the challenge page does,
 * until each answers on its port (bounded: 60 s). Then every instance is stopped through the API
 * and the engine is asked that nothing with this site's label is left.
 */

export const INSTANCE_TEAMS = 30;
const IMAGE = 'ctf-flag-service:test';
const ANSWER_DEADLINE_MS = 60_000;
const POLL_MS = 500;
// A range no test uses (the tests take 31000-34999), so a run beside them cannot collide, and below
// Linux's ephemeral ports (32768-60999 by default): the bench's own client sockets took ports in
// 36000-36999, and a random pick there failed a start with 'address already in use'.
const PORT_RANGE = '30000-30999';
/**
 * Entry points made ahead for the challenge (INSTANCE_WARM_ENTRIES): by default as many as the
 * teams starting at once (an organiser sizes it to the opening's burst); BENCH_WARM_ENTRIES=0
 * measures every start cold. The leg waits for them before measuring anything.
 */
const WARM_ENTRIES = Number(process.env.BENCH_WARM_ENTRIES ?? INSTANCE_TEAMS);
const WARM_READY_MS = 180_000;
/** A warm entry point's container or network (named ctf-<site key>-w<12 hex>). */
const WARM_NAME = /-w[0-9a-f]{12}(-entry)?$/;

/** The engine, or null after one line (no engine, or it lacks the image) when the leg is optional. */
async function engineFor(opts: BenchOptions): Promise<DockerEngine | null> {
  const engine = await dockerEngine('bench: instances leg');
  const missing = (why: string) => {
    if (opts.instances === 'required') throw new Error(`BENCH_ONLY names instances, but ${why}`);
    opts.log?.(`instances leg skipped: ${why}`);
    return null;
  };
  if (!engine) return opts.instances === 'required' ? missing('no Docker engine answers') : null;
  try {
    await engineRequest(engine.host, `/images/${encodeURIComponent(IMAGE)}/json`);
  } catch {
    return missing(`the engine at ${engine.host} has no ${IMAGE} (scripts/docker/build-base-image.sh)`);
  }
  return engine;
}

/**
 * Adds the instance challenge and the challenge host setting, and signs in one member of each of
 * INSTANCE_TEAMS competitors (team leaders, then solo players), through the product's services.
 */
async function prepareInstances(env: Record<string, string>) {
  const { app, ctx } = await buildApp(loadConfig(env), { logger: false });
  try {
    const { id } = await createChallenge(ctx, {
      name: 'Bench instance',
      description: '<p>A per-team service: <code>nc HOST PORT</code> prints your flag.</p>',
      category: 'Binary Exploitation',
      difficulty: 'Easy',
      written_by: 'bench',
      flag: 'flag{bench_instance}',
      per_team: true,
      instance: {
        image: IMAGE,
        ports: [{ port: 1337, protocol: 'tcp' }],
        memoryMb: 64,
        cpus: 0.25,
        pids: 32,
        lifetimeMinutes: 30,
        env: {},
      },
    });
    await updateSettings(ctx, { challengeHost: '127.0.0.1' }, SYSTEM_ACTOR);
    const db = ctx.database.db;
    const leaders = await db
      .selectFrom('teams')
      .select('leader_id as id')
      .orderBy('id')
      .limit(INSTANCE_TEAMS)
      .execute();
    const solo =
      leaders.length < INSTANCE_TEAMS
        ? await db
            .selectFrom('users')
            .select('id')
            .where('team_id', 'is', null)
            .where('is_admin', '=', 0)
            .where('username_key', '!=', nameKey('benchadmin'))
            .orderBy('id')
            .limit(INSTANCE_TEAMS - leaders.length)
            .execute()
        : [];
    const ids = [...leaders, ...solo].map((r) => r.id);
    if (ids.length < INSTANCE_TEAMS) throw new Error(`the event has only ${ids.length} competitors`);
    const cookies: string[] = [];
    for (const userId of ids) cookies.push(`ctf_session=${(await createSession(ctx, userId)).token}`);
    return { challengeId: id, cookies };
  } finally {
    await app.close();
  }
}

/** Reads what the instance's TCP service sends until it closes (bounded: 4 KB, 5 s). */
function readService(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let text = '';
    const done = () => resolve(text);
    socket.setTimeout(5000, () => socket.destroy());
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      text += d;
      if (text.length > 4096) socket.destroy();
    });
    socket.on('close', done);
    socket.on('error', () => {});
  });
}

/**
 * This site's containers and networks on the engine (by its label), running or not; `warm`: only
 * the warm entry points' (false: all but those).
 */
async function leftovers(
  engine: DockerEngine,
  site: string,
  warm?: boolean,
): Promise<{ containers: string[]; networks: string[] }> {
  const filters = encodeURIComponent(JSON.stringify({ label: [`${LABELS.site}=${site}`] }));
  const ids = async (path: string) =>
    (JSON.parse(await engineRequest(engine.host, path)) as { Id: string; Name?: string; Names?: string[] }[])
      .filter((c) => warm === undefined || WARM_NAME.test(c.Name ?? c.Names?.[0] ?? '') === warm)
      .map((c) => c.Id);
  return {
    containers: await ids(`/containers/json?all=1&filters=${filters}`),
    networks: await ids(`/networks?filters=${filters}`),
  };
}

/** Waits (bounded) until the janitor has made every warm entry point; ms it took, NaN: none. */
async function warmReady(engine: DockerEngine, site: string, opts: BenchOptions): Promise<number> {
  if (WARM_ENTRIES === 0) return NaN;
  const began = performance.now();
  for (;;) {
    const { containers } = await leftovers(engine, site, true);
    if (containers.length >= WARM_ENTRIES) break;
    if (performance.now() - began > WARM_READY_MS)
      throw new Error(
        `only ${containers.length} of ${WARM_ENTRIES} warm entry points after ${WARM_READY_MS} ms`,
      );
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const ms = performance.now() - began;
  opts.log?.(`  ${WARM_ENTRIES} warm entry points made in ${Math.round(ms)} ms`);
  return ms;
}

/** Last resort after a failed leg: removes what is left with this site's label (the CLI, as e2e does). */
function forceRemove(engine: DockerEngine, left: { containers: string[]; networks: string[] }): void {
  const env = { ...process.env, ...engine.env, DOCKER_API_VERSION: engine.apiVersion };
  if (left.containers.length) spawnSync('docker', ['container', 'rm', '-f', ...left.containers], { env });
  if (left.networks.length) spawnSync('docker', ['network', 'rm', ...left.networks], { env });
}

export async function benchInstances(
  baseline: Baseline,
  env: Record<string, string>,
  event: SeededEvent,
  opts: BenchOptions,
  hello: LoadResult[],
): Promise<InstancesRun | null> {
  if (opts.instances === 'off') return null;
  const engine = await engineFor(opts);
  if (!engine) return null;
  const { challengeId, cookies } = await prepareInstances(env);
  const site = `bench-${randomBytes(6).toString('hex')}`;
  const server = await startServer({
    ...env,
    LOG_LEVEL: 'warn',
    DOCKER_HOST: engine.host,
    INSTANCE_PORT_RANGE: PORT_RANGE,
    INSTANCE_SITE: site,
    INSTANCE_WARM_ENTRIES: String(WARM_ENTRIES),
  });
  try {
    const warmReadyMs = await warmReady(engine, site, opts);
    const loopback = `http://127.0.0.1:${server.port}`;
    const c = Math.max(...opts.connections);
    const board = () => requestMaker('leaderboard', event, server.url, '');
    const idle = await measure(baseline, loopback, 'leaderboard', board(), c, opts, hello);
    logLine(opts, 'instances leg, none starting: ', idle);

    const call = (cookie: string, method: string, path: string, body?: unknown) =>
      fetch(`${loopback}${path}`, {
        method,
        headers: {
          ...BROWSER_HEADERS,
          cookie,
          ...(body ? { 'content-type': 'application/json', origin: server.url } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
    const began = performance.now();
    // Each competitor presses Start, then polls its instance as the challenge page does.
    const startOne = async (cookie: string) => {
      const start = await call(cookie, 'POST', '/api/ctf/instance/start', { challenge_id: challengeId });
      const first = (await start.json()) as { message?: string };
      if (start.status !== 200) return { ms: NaN, port: 0, error: `${start.status} ${first.message}` };
      for (;;) {
        const res = await call(cookie, 'GET', `/api/ctf/instance?challenge_id=${challengeId}`);
        const s = (await res.json()) as { status?: string; ports?: { port: number }[]; message?: string };
        if (s.status === 'running')
          return { ms: performance.now() - began, port: s.ports![0]!.port, error: '' };
        if (res.status !== 200) return { ms: NaN, port: 0, error: `${res.status} ${s.message}` };
        if (performance.now() - began > ANSWER_DEADLINE_MS)
          return { ms: NaN, port: 0, error: 'still starting' };
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    };
    const startsP = Promise.all(cookies.map(startOne));
    const starting = await measure(baseline, loopback, 'leaderboard', board(), c, opts, hello);
    const measuredMs = performance.now() - began;
    const starts = await startsP;
    logLine(opts, `instances leg, ${INSTANCE_TEAMS} starting: `, starting);
    const answered = starts.filter((s) => Number.isFinite(s.ms));
    // The port answering is the server's test; the flag read back is the player's.
    const flags = await Promise.all(answered.map((s) => readService(s.port)));
    const withFlag = flags.filter((f) => /^flag\{bench_instance_[0-9a-f]+\}$/.test(f.trim())).length;
    const allMs = answered.length === INSTANCE_TEAMS ? Math.max(...answered.map((s) => s.ms)) : NaN;
    const errors = [...new Set(starts.filter((s) => s.error).map((s) => s.error))];
    // A failed start's reason is the admins' (and the server's log): named beside the figures.
    if (errors.length > 0)
      for (const m of new Set(
        [...server.output().matchAll(/instance \d+: ([^"\n]{1,300})/g)].map((x) => x[1]),
      ))
        errors.push(`logged: ${m}`);
    opts.log?.(
      `  ${answered.length} of ${INSTANCE_TEAMS} instances answered (${withFlag} printed their flag); all within ${Math.round(allMs)} ms; the measurement lasted ${Math.round(measuredMs)} ms${errors.length ? `; errors: ${errors.join('; ')}` : ''}`,
    );

    const stops = await Promise.all(
      cookies.map((k) => call(k, 'POST', '/api/ctf/instance/stop', { challenge_id: challengeId })),
    );
    const stopStatuses: Record<string, number> = {};
    for (const s of stops) stopStatuses[s.status] = (stopStatuses[s.status] ?? 0) + 1;
    const left = await leftovers(engine, site, false);
    opts.log?.(
      `  stopped through the API (${Object.entries(stopStatuses)
        .map(([k, v]) => `${v} x ${k}`)
        .join(
          ', ',
        )}); left with the site's label: ${left.containers.length} containers, ${left.networks.length} networks`,
    );
    return {
      teams: INSTANCE_TEAMS,
      idle,
      starting,
      answered: answered.length,
      withFlag,
      allAnsweredMs: allMs,
      firstAnsweredMs: answered.length ? Math.min(...answered.map((s) => s.ms)) : NaN,
      measuredMs,
      errors,
      stopStatuses,
      leftContainers: left.containers.length,
      leftNetworks: left.networks.length,
      warmEntries: WARM_ENTRIES,
      warmReadyMs,
    };
  } finally {
    await stopServer(server, opts);
    // Whatever a failed leg left (the figures above report it) goes, so no run leaks containers.
    forceRemove(engine, await leftovers(engine, site));
  }
}

const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

/** The leg's paragraph of the report. */
export function instancesSection(r: InstancesRun): string[] {
  const ratio = (x: LoadResult) => x.requestsPerSec / x.hello;
  const line = (x: LoadResult) =>
    `${fmt(ratio(x), 2)} (${fmt(x.requestsPerSec)} req/s, hello ${fmt(x.hello)}, p99 ${x.p99} ms, ${x.errors} errors)`;
  return [
    '',
    `### Instances starting (issue 30): ${r.teams} teams at once, SQLite`,
    '',
    r.warmEntries > 0
      ? `- ${r.warmEntries} warm entry points (INSTANCE_WARM_ENTRIES) made by the janitor in ${fmt(r.warmReadyMs)} ms before the measurements.`
      : '- No warm entry point (INSTANCE_WARM_ENTRIES=0): every start makes its own network and entry point.',
    `- Leaderboard @${r.idle.connections}, ratio to hello-world: ${line(r.idle)} with none starting; ${line(r.starting)} while they started: ${fmt((ratio(r.starting) / ratio(r.idle)) * 100, 0)}% of the figure without.`,
    `- ${r.answered} of ${r.teams} instances answered on their port (${r.withFlag} printed their team's flag); the first after ${fmt(r.firstAnsweredMs)} ms, all after ${fmt(r.allAnsweredMs)} ms (the measurement while starting lasted ${fmt(r.measuredMs)} ms from the Starts).${r.errors.length ? ` Errors: ${r.errors.join('; ')}.` : ''}`,
    `- Stopped through the API (${Object.entries(r.stopStatuses)
      .map(([k, v]) => `${v} x ${k}`)
      .join(
        ', ',
      )}); left on the engine with the site's label (warm entry points aside): ${r.leftContainers} containers, ${r.leftNetworks} networks.`,
  ];
}
