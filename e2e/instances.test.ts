import { MESSAGES } from '@ctf/contract';
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerEngine, engineRequest } from '../server/test/docker.js';
import {
  ENTRY_IMAGE,
  instanceDefinition,
  readService,
  requireImage,
} from '../server/test/instance-fixtures.js';
import { browserAvailable } from './support/browser.js';
import { HttpClient, within } from './support/http.js';
import { startServer, type RunningServer } from './support/server.js';
import { pressAndAnswer, useBrowserSuite } from './support/suite.js';

/**
 * Per-team instances with the real built server and a real Docker engine (issue 30): the site is
 * killed (SIGKILL) while teams' containers are being made, and after its restart no team is left
 * unable to start and nothing outlives its expiry; and a player's whole flow in Chromium.
 */
const engine = await dockerEngine('per-team instances (e2e)');
if (engine) for (const image of ['ctf-flag-service:test', ENTRY_IMAGE]) await requireImage(engine, image);

// An event that has ended with play left open (the default): challenges may be created and played.
const WINDOW = { EVENT_START: '2020-01-01T00:00:00Z', EVENT_END: '2020-01-08T00:00:00Z' };
const DEFINITION = instanceDefinition();

function instanceServerEnv(ports: string): Record<string, string> {
  return {
    ...WINDOW,
    DOCKER_HOST: engine!.host,
    INSTANCE_PORT_RANGE: ports,
    INSTANCE_SITE: `e2e-${randomBytes(6).toString('hex')}`,
    INSTANCE_START_TIMEOUT_SECONDS: '10',
    // Every start makes its own entry point: the counts below are the instances' containers only.
    INSTANCE_WARM_ENTRIES: '0',
  };
}

/** This site's containers on the engine (by its label), running or not. */
async function containersOf(site: string): Promise<{ Id: string; Labels: Record<string, string> }[]> {
  const filters = encodeURIComponent(JSON.stringify({ label: [`ctf.site=${site}`] }));
  return JSON.parse(await engineRequest(engine!.host, `/containers/json?all=1&filters=${filters}`)) as {
    Id: string;
    Labels: Record<string, string>;
  }[];
}

/** Removes whatever a failed run left on the engine for this site (the janitor's work is tested). */
function removeSiteLeftovers(site: string): void {
  const env = { ...process.env, ...engine!.env, DOCKER_API_VERSION: engine!.apiVersion };
  for (const kind of ['container', 'network'] as const) {
    const ids = spawnSync(
      'docker',
      [kind, 'ls', ...(kind === 'container' ? ['-a'] : []), '-q', '--filter', `label=ctf.site=${site}`],
      {
        env,
        encoding: 'utf8',
      },
    )
      .stdout.split('\n')
      .filter(Boolean);
    if (ids.length > 0)
      spawnSync('docker', [kind, 'rm', ...(kind === 'container' ? ['-f'] : []), ...ids], { env });
  }
}

async function setUpEvent(server: RunningServer, players: number) {
  const admin = await new HttpClient(server.url).signIn(server.url, 'organiser', true);
  expect((await admin.post(server.url, '/api/admin/settings', { challengeHost: '127.0.0.1' })).status).toBe(
    200,
  );
  const created = await admin.post(server.url, '/api/admin/ctf/create_challenge', {
    name: 'Box',
    category: 'Binary Exploitation',
    difficulty: 'Easy',
    written_by: 'club',
    flag: 'flag{box}',
    per_team: true,
    instance: DEFINITION,
  });
  expect(created.status, created.text).toBe(200);
  expect((await admin.post(server.url, '/api/admin/update_site_info', { activated: true })).status).toBe(200);
  const list = (await admin.get(server.url, '/api/admin/ctf/fetch_challenges')).body as { _id: string }[];
  const clients: HttpClient[] = [];
  for (let i = 0; i < players; i++) {
    const c = await new HttpClient(server.url).signIn(server.url, `player${i}`);
    expect((await c.post(server.url, '/api/team/create', { team_name: `Crew ${i}` })).status).toBe(200);
    clients.push(c);
  }
  return { challengeId: list[0]!._id, clients };
}

describe.skipIf(!engine)('instances survive a killed site', () => {
  // A skipped suite's body still runs (to list its tests): nothing here may need the engine.
  const dataDir = engine ? mkdtempSync(path.join(tmpdir(), 'ctf-e2e-instances-')) : '';
  const env: Record<string, string> = engine
    ? { ...instanceServerEnv('33000-33999'), DATA_DIR: dataDir }
    : {};
  const site = env.INSTANCE_SITE ?? '';
  let server: RunningServer | undefined;
  afterAll(async () => {
    if (!engine) return;
    await server?.stop();
    removeSiteLeftovers(site);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('after kill -9 during starts and a restart, every team gets a running instance and nothing outlives its expiry', async () => {
    server = await startServer(env);
    const { challengeId, clients: before } = await setUpEvent(server, 6);
    const starts = await Promise.all(
      before.map((c) => c.post(server!.url, '/api/ctf/instance/start', { challenge_id: challengeId })),
    );
    expect(starts.map((s) => s.status)).toEqual(before.map(() => 200));
    // The rows are committed and the containers are being made: the site dies now.
    server.process.kill('SIGKILL');
    await new Promise((r) => server!.process.once('exit', r));

    server = await startServer(env);
    const url = server.url;
    // The restarted site listens on another port (its own origin); the sessions are in the database.
    const clients = before.map((b) => Object.assign(new HttpClient(url), { cookie: b.cookie }));
    const flags = new Set<string>();
    let seen: string[] = [];
    const waited = await within(60_000, async () => {
      seen = [];
      for (const c of clients) {
        const res = await c.get(url, `/api/ctf/instance?challenge_id=${challengeId}`);
        seen.push(`${res.status} ${res.body?.status ?? res.body?.message}`);
        // A start the dead process left is given up after the start timeout: Start again.
        if (res.status === 503 || res.status === 404) {
          const again = await c.post(url, '/api/ctf/instance/start', { challenge_id: challengeId });
          seen.push(`start: ${again.status} ${again.text}`);
        }
      }
      return seen.every((x) => x === '200 running');
    });
    const organiser = await new HttpClient(url).signIn(url, 'organiser', true);
    const rows = (await organiser.get(url, '/api/admin/instances')).text;
    expect(waited, `${seen.join('; ')}\n${rows}\n${server.output()}`).toBeGreaterThanOrEqual(0);
    for (const c of clients) {
      const state = (await c.get(url, `/api/ctf/instance?challenge_id=${challengeId}`)).body;
      const flag = (await readService('127.0.0.1', state.ports[0].port)).trim();
      expect(flag).toMatch(/^flag\{box_[0-9a-f]{16}\}$/);
      flags.add(flag);
      expect(
        (await c.post(url, '/api/ctf/submit-flag', { challenge_id: challengeId, flag })).body.message,
      ).toBe(MESSAGES.correctFlag);
    }
    expect(flags.size).toBe(clients.length);
    // One instance per team (its challenge's container and its entry point): whatever the dead
    // process made was adopted or removed.
    await expect.poll(async () => (await containersOf(site)).length, { timeout: 20_000 }).toBe(12);
    const roles = (await containersOf(site)).map((c) => c.Labels['ctf.role']);
    expect(roles.filter((r) => r === 'challenge')).toHaveLength(6);
    expect(roles.filter((r) => r === 'entry')).toHaveLength(6);

    // Time passes (the rows' expiry moved to now): the janitor removes every container.
    const db = new Database(path.join(dataDir, 'ctf.sqlite'), { timeout: 10_000 });
    try {
      db.prepare('UPDATE instances SET expires_at = ?').run(Date.now() - 1);
    } finally {
      db.close();
    }
    await expect.poll(async () => (await containersOf(site)).length, { timeout: 30_000 }).toBe(0);
    for (const c of clients)
      expect((await c.get(url, `/api/ctf/instance?challenge_id=${challengeId}`)).status).toBe(404);
  }, 180_000);
});

describe.runIf(engine && browserAvailable())('the instance panel in Chromium', () => {
  const env = engine ? instanceServerEnv('34000-34999') : {};
  const suite = useBrowserSuite(env);
  afterAll(() => removeSiteLeftovers(env.INSTANCE_SITE!));
  let server: RunningServer;
  let player: Page;
  let adminContext: BrowserContext;
  let challengeId: string;

  beforeAll(async () => {
    server = suite.server;
    ({ challengeId } = await setUpEvent(server, 0));
    const playerContext = await suite.context('visitor-team-player');
    await playerContext.request.post(`${server.url}/api/team/create`, {
      data: { team_name: 'Browsers' },
      headers: { origin: server.url },
    });
    player = await playerContext.newPage();
    adminContext = await suite.context('organiser', { admin: true });
  });

  it('starts the team’s instance, shows nc HOST PORT once it answers, and its flag scores; the admin stops it', async () => {
    await player.goto(`${server.url}/challenge?id=${challengeId}`);
    const panel = player.getByTestId('instance-panel');
    await pressAndAnswer(
      panel.getByRole('button', { name: 'Start instance' }),
      '/api/ctf/instance/start',
      player,
    );
    const address = panel.getByTestId('instance-addresses');
    await address.waitFor({ timeout: 30_000 });
    const text = (await address.textContent()) ?? '';
    const m = /nc 127\.0\.0\.1 ([0-9]+)/.exec(text);
    expect(m, text).not.toBeNull();
    await expect
      .poll(() => panel.getByTestId('instance-time-left').textContent())
      .toMatch(/^(29|30):[0-9]{2}$/);

    const flag = (await readService('127.0.0.1', Number(m![1]))).trim();
    await player.getByRole('textbox', { name: 'Flag' }).fill(flag);
    await pressAndAnswer(player.getByRole('button', { name: 'Submit Flag' }), '/api/ctf/submit-flag', player);
    await expect.poll(() => player.getByTestId('flag-message').textContent()).toContain(MESSAGES.correctFlag);

    const admin = await adminContext.newPage();
    await admin.goto(`${server.url}/admin/panel`);
    await admin.getByRole('tab', { name: 'Instances' }).click();
    const table = admin.getByRole('table', { name: 'Instances' });
    await expect.poll(() => table.textContent()).toContain(`nc 127.0.0.1 ${m![1]}`);
    await pressAndAnswer(
      table.getByRole('button', { name: 'Stop the instance of Browsers for Box' }),
      '/api/admin/instances/stop',
      admin,
    );
    await expect.poll(() => admin.getByText('No instances running.').count()).toBe(1);
    await player.reload();
    await player.getByTestId('instance-panel').getByRole('button', { name: 'Start instance' }).waitFor();
  });
});
