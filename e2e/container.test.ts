import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { dockerEngine, engineRequest } from '../server/test/docker.js';
import { FakeOAuthProvider } from '../server/test/fake-oauth-provider.js';
import { ComposeStack, REPO_ROOT as root, findCompose, inspect } from './support/compose.js';
import { HttpClient, within } from './support/http.js';
import { oauthClient } from './support/oauth-http.js';
import { SERVER_ENTRY, SERVER_ENV, SERVER_NODE_FLAGS, freePort } from './support/server.js';

/**
 * The container image (Dockerfile) and the compose files, as an organiser uses them. compose.yaml:
 * the image is built, `docker-compose up` brings the site up on SQLite, an admin and a player sign
 * in, a flag is solved, the stack is taken down and brought up again on the same volume, the solve
 * is still there, and `down -v` removes everything. compose.full.yaml: the same site on PostgreSQL
 * and Redis behind nginx, with Debian-built stand-ins for the three upstream images
 * (scripts/docker/stand-ins). Needs a Docker engine (server/test/docker.ts) and docker-compose; CI
 * starts both and builds the base images (.ci/run).
 */
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** Settings the image fixes (or that name the compose host's own engine): compose.yaml never passes them. */
const NOT_PASSED = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'UPLOAD_DIR',
  // The image sets production: the local trial sign-in stays off whatever the host's shell says.
  'NODE_ENV',
  'DOCKER_HOST',
  'DOCKER_TLS_VERIFY',
  'DOCKER_CERT_PATH',
];

describe('container files', () => {
  it('runs the server as `npm start` does: the same entry, Node flags and environment', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(read('Dockerfile'));
    expect(cmd).not.toBeNull();
    expect(JSON.parse(cmd![1]!)).toEqual(['node', ...SERVER_NODE_FLAGS, path.relative(root, SERVER_ENTRY)]);
    const vars = Object.entries(SERVER_ENV).map(([k, v]) => `${k}=${v}`);
    const env = /^ENV ((?:.*\\\n)*.*)$/m.exec(read('Dockerfile'))![1]!.split(/\s+\\?\s*/);
    for (const v of vars) expect(env).toContain(v);
  });

  it('builds on the same default base image in the Dockerfile and compose.yaml', () => {
    const arg = /^ARG BASE=(\S+)$/m.exec(read('Dockerfile'))![1];
    const compose = YAML.parse(read('compose.yaml'));
    expect(compose.services.site.build.args.BASE).toBe(`\${CTF_BASE_IMAGE:-${arg}}`);
  });

  it('passes every setting of .env.example to the site, except what the image fixes', () => {
    const documented = [...read('.env.example').matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
    const passed: string[] = YAML.parse(read('compose.yaml')).services.site.environment;
    for (const name of documented.filter((n) => !NOT_PASSED.includes(n))) {
      expect(
        passed,
        `compose.yaml does not pass ${name} to the site: add it to its environment list`,
      ).toContain(name);
    }
    for (const name of NOT_PASSED) expect(passed).not.toContain(name);
  });
});

const engine = await dockerEngine('container image and compose files');
const composeCommand = engine ? await findCompose(engine) : null;

/**
 * The image never offers the local trial sign-in (NODE_ENV=production, HOST=0.0.0.0), so people
 * sign in as at a real event: through OAuth (GitHub's flow against the fake provider), the first
 * admin named in ADMINS (docs/deploy.md, "The first admin"). The provider listens on the engine's
 * bridge address, on this machine, where the site's container reaches it.
 */
async function startOAuthProvider(): Promise<FakeOAuthProvider> {
  const bridge = JSON.parse(await engineRequest(engine!.host, '/networks/bridge'));
  return new FakeOAuthProvider().start(bridge.IPAM.Config[0].Gateway as string);
}
const ADMIN_LOGIN = 'compose-admin';
const signInSettings = (fake: FakeOAuthProvider) => ({ ...fake.env(), ADMINS: `github:${ADMIN_LOGIN}` });

/** Signs in through the OAuth flow; the client sends the site's own Origin (PUBLIC_URL's). */
async function signIn(base: string, origin: string, fake: FakeOAuthProvider, login: string, id: string) {
  const session = await oauthClient(base, fake, { id, login, email: `${login}@example.org` });
  const client = new HttpClient(origin);
  client.cookie = session.cookie;
  return client;
}

/** The site's public page of points: name and points of each competitor. */
const board = async (base: string) => (await fetch(`${base}/api/info/leaderboard`)).json();

/**
 * An admin adds challenges and opens the site; a player solves one. `sample`: the set-up
 * checklist's "Add the sample challenges" (files the image must carry) and First Steps' flag from
 * docs/sample-challenges; else one challenge made with the given flag.
 */
async function playOneSolve(
  base: string,
  origin: string,
  fake: FakeOAuthProvider,
  challenges: 'sample' | { flag: string },
) {
  const admin = await signIn(base, origin, fake, ADMIN_LOGIN, '7001');
  let name = 'Container';
  let flag: string;
  let points = 100;
  if (challenges === 'sample') {
    const added = await admin.post(base, '/api/admin/sample_challenges', {});
    expect(added.status, added.text).toBe(200);
    expect(added.body.created).toContain('First Steps');
    const yml = YAML.parse(read('docs/sample-challenges/first-steps/challenge.yml'));
    [name, flag, points] = [yml.name, yml.flags[0], yml.value];
  } else {
    flag = challenges.flag;
    const created = await admin.post(base, '/api/admin/ctf/create_challenge', {
      name,
      category: 'General',
      difficulty: 'Easy',
      written_by: 'tester',
      flag,
    });
    expect(created.status, created.text).toBe(200);
  }
  expect((await admin.post(base, '/api/admin/update_site_info', { activated: true })).status).toBe(200);
  const player = await signIn(base, origin, fake, 'compose-player', '7002');
  const list = (await player.get(base, '/api/ctf/challenges')).body as {
    _id: string;
    name: string;
    hlinks: string[];
  }[];
  const { _id: challengeId, hlinks: files } = list.find((c) => c.name === name)!;
  const solved = await player.post(base, '/api/ctf/submit-flag', { challenge_id: challengeId, flag });
  expect(solved.status, solved.text).toBe(200);
  const entry = { name: 'compose-player', points };
  expect(await board(base)).toEqual([expect.objectContaining(entry)]);
  return { admin, player, challengeId, flag, entry, files };
}

/** Each step on a stack (health checks, restarts): more than the e2e default, for busy machines. */
const STACK_STEP_MS = 240_000;

/** A past window, as the other end-to-end tests use: play is open after it (the default). */
const PAST_EVENT = { EVENT_START: '2020-01-01T00:00:00Z', EVENT_END: '2020-01-08T00:00:00Z' };

describe.skipIf(!composeCommand)('compose.yaml on a real Docker engine', () => {
  const stack = new ComposeStack(engine!, composeCommand!, ['compose.yaml']);
  let base = '';
  let origin = '';
  let fake: FakeOAuthProvider;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    origin = `http://localhost:${port}`;
    fake = await startOAuthProvider();
    await stack.configure({
      CTF_LISTEN: `127.0.0.1:${port}`,
      PUBLIC_URL: origin,
      LOG_LEVEL: 'warn',
      ...signInSettings(fake),
      ...PAST_EVENT,
    });
    await stack.buildAndStart();
  }, 26 * 60_000);

  afterAll(async () => {
    await stack.destroy();
    await fake?.stop();
  }, 120_000);

  it(
    'starts healthy, as a user other than root, with its data in a named volume',
    async () => {
      await stack.healthy('site');
      expect((await stack.compose(['exec', '-T', 'site', 'id', '-u'])).trim()).toBe('10001');
      const container = await inspect(stack.engine, 'containers', await stack.containerId('site'));
      const mount = container.Mounts.find((m: { Destination: string }) => m.Destination === '/data');
      expect(mount).toMatchObject({ Type: 'volume', Name: `${stack.project}_ctf-data` });
      const health = await fetch(`${base}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', database: true });
    },
    STACK_STEP_MS,
  );

  it(
    'signs in, adds the sample challenges, records a solve, and keeps it when the stack is taken down and up',
    async () => {
      const { player, challengeId, flag, entry, files } = await playOneSolve(base, origin, fake, 'sample');
      // The import packs a challenge's files into one archive, stored in the volume's uploads.
      expect(files).toEqual(['first-steps.zip']);

      // A new container on the same volume: the database, sessions and solve are all still there.
      const before = await stack.containerId('site');
      await stack.compose(['down']);
      await stack.compose(['up', '-d']);
      expect(await stack.containerId('site')).not.toBe(before);
      await stack.healthy('site');
      expect(await board(base)).toEqual([expect.objectContaining(entry)]);
      const again = await player.post(base, '/api/ctf/submit-flag', { challenge_id: challengeId, flag });
      // The session (kept in the database) still signs the player in, and the solve is known.
      expect(again.text).toContain('You have already solved this challenge.');
      // The uploaded file lives in the volume too.
      const download = await player.get(base, `/api/ctf/download/${files[0]}`);
      expect(download.status).toBe(200);
      expect(download.text.startsWith('PK')).toBe(true);
      expect(download.text).toContain('welcome.txt');
    },
    STACK_STEP_MS,
  );

  it(
    'stops gracefully on SIGTERM: exit code 0, long before the grace period ends',
    async () => {
      const id = await stack.containerId('site');
      const started = Date.now();
      await stack.compose(['stop']);
      const elapsed = Date.now() - started;
      expect((await inspect(stack.engine, 'containers', id)).State.ExitCode).toBe(0);
      // compose.yaml gives it 15 s before SIGKILL (exit code 137); it closes in well under that.
      expect(elapsed).toBeLessThan(10_000);
    },
    STACK_STEP_MS,
  );

  it(
    'takes everything down with `down -v`, the volume included',
    async () => {
      await stack.down();
      await expect(inspect(stack.engine, 'volumes', `${stack.project}_ctf-data`)).rejects.toThrow(/404/);
      expect((await stack.compose(['ps', '-q'])).trim()).toBe('');
    },
    STACK_STEP_MS,
  );
});

describe.skipIf(!composeCommand)(
  'compose.full.yaml: PostgreSQL, Redis and nginx (Debian-built stand-ins)',
  () => {
    const stack = new ComposeStack(engine!, composeCommand!, [
      'compose.yaml',
      'compose.full.yaml',
      'scripts/docker/stand-ins/compose.yaml',
    ]);
    let base = '';
    let origin = '';
    let fake: FakeOAuthProvider;

    beforeAll(async () => {
      const [proxyPort, sitePort] = [await freePort(), await freePort()];
      base = `http://127.0.0.1:${proxyPort}`;
      origin = `http://localhost:${proxyPort}`;
      fake = await startOAuthProvider();
      await stack.configure({
        ...signInSettings(fake),
        CTF_HTTP_LISTEN: `127.0.0.1:${proxyPort}`,
        CTF_LISTEN: `127.0.0.1:${sitePort}`,
        PUBLIC_URL: origin,
        SESSION_SECRET: randomBytes(24).toString('hex'),
        POSTGRES_PASSWORD: randomBytes(12).toString('hex'),
        LOG_LEVEL: 'warn',
        ...PAST_EVENT,
      });
      await stack.buildAndStart();
    }, 26 * 60_000);

    afterAll(async () => {
      await stack.destroy();
      await fake?.stop();
    }, 120_000);

    it(
      'refuses to start without SESSION_SECRET or POSTGRES_PASSWORD, naming it',
      async () => {
        for (const name of ['SESSION_SECRET', 'POSTGRES_PASSWORD']) {
          await expect(stack.compose(['config', '-q'], 30_000, [name])).rejects.toThrow(`set ${name}`);
        }
      },
      STACK_STEP_MS,
    );

    it(
      'serves the site through nginx on PostgreSQL and Redis, streams unbuffered, and sees clients',
      async () => {
        expect(
          await within(90_000, async () => {
            const r = await fetch(`${base}/api/health`).catch(() => null);
            return r?.status === 200 && (await r.json()).redis === true;
          }),
        ).toBeGreaterThanOrEqual(0);
        // The event stream's first bytes come through at once: nginx does not buffer them.
        const stream = await fetch(`${base}/api/events`, { signal: AbortSignal.timeout(10_000) });
        const reader = stream.body!.getReader();
        expect(new TextDecoder().decode((await reader.read()).value)).toContain(': open');
        await reader.cancel();

        const { admin } = await playOneSolve(base, origin, fake, { flag: 'flag{behind-nginx}' });
        const count = await stack.compose([
          'exec',
          '-T',
          'postgres',
          'psql',
          '-U',
          'ctf',
          '-d',
          'ctf',
          '-tAc',
          'select count(*) from solves',
        ]);
        expect(count.trim()).toBe('1');
        // TRUST_PROXY names nginx alone: the submission log holds the address nginx saw, not nginx's.
        const rows = (await admin.get(base, '/api/admin/submissions?limit=10')).body.rows as {
          address: string;
        }[];
        expect(rows).toHaveLength(1);
        expect(rows[0]!.address).toMatch(/^[0-9a-f.:]+$/);
        expect(rows[0]!.address).not.toBe('172.31.250.10');
      },
      STACK_STEP_MS,
    );
  },
);
