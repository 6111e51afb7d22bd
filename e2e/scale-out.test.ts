import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, within } from './support/http.js';
import { freePort, startServer, type RunningServer } from './support/server.js';
import { Nginx, PrivateRedis, createPostgresDatabase, nginxAvailable } from './support/services.js';

/**
 * Two server processes on two ports sharing one database (and, on the PostgreSQL leg, one private
 * Redis) must behave as one: sessions, the wrong-flag limit, caches and the team cap.
 */
const legs: ('sqlite' | 'postgres')[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const SECRET = 'multi-process-secret-multi-process-secret-0123';

async function setUpEvent(admin: HttpClient, base: string, flags: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, flag] of flags.entries()) {
    const r = await admin.post(base, '/api/admin/ctf/create_challenge', {
      name: `Shared ${i}`,
      description: 'A challenge',
      category: 'General',
      difficulty: 'Easy',
      written_by: 'tester',
      flag,
      files: [],
    });
    expect(r.status, r.text).toBe(200);
  }
  expect((await admin.post(base, '/api/admin/update_site_info', { activated: true })).status).toBe(200);
  const list = await admin.get(base, '/api/ctf/challenges');
  for (const c of list.body) ids.push(c._id);
  return ids;
}

for (const leg of legs) {
  describe(`two processes on ${leg}`, () => {
    let a: RunningServer;
    let b: RunningServer;
    let dataDir: string;
    let publicUrl: string;
    let dropDb: (() => Promise<void>) | null = null;
    const redis = new PrivateRedis();
    let nginx: Nginx | null = null;
    let ids: string[] = [];
    let admin: HttpClient;

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'ctf-mp-'));
      const nginxPort = await freePort();
      publicUrl = `http://localhost:${nginxPort}`;
      const env: Record<string, string> = { DATA_DIR: dataDir, PUBLIC_URL: publicUrl, SESSION_SECRET: SECRET };
      if (leg === 'postgres') {
        const db = await createPostgresDatabase();
        dropDb = db.drop;
        env.DATABASE_URL = db.url;
        if (PrivateRedis.available()) {
          await redis.start();
          env.REDIS_URL = redis.url;
        }
      }
      a = await startServer(env);
      b = await startServer(env);
      if (nginxAvailable()) {
        nginx = new Nginx();
        await nginx.start([a.port, b.port], nginxPort);
      } else if (process.env.REQUIRE_BROWSER === '1') {
        throw new Error('nginx is required in CI (apt-get install nginx-light)');
      } else {
        console.warn('\n!!! NGINX TESTS SKIPPED: no nginx binary (apt-get install nginx-light) !!!\n');
      }
      admin = await new HttpClient(publicUrl).signIn(a.url, 'mp-admin', true);
      ids = await setUpEvent(admin, a.url, ['flag{one}', 'flag{two}', 'flag{three}']);
    });

    afterAll(async () => {
      await nginx?.stop();
      await a?.stop();
      await b?.stop();
      await redis.stop();
      await dropDb?.();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('a session made through A works through B, and logout or removal through B ends it for A', async () => {
      const u = await new HttpClient(publicUrl).signIn(a.url, 'roamer');
      expect((await u.get(b.url, '/api/user/info')).body.username).toBe('roamer');
      // A keeps the session in memory now; B's logout must still end it there.
      expect((await u.get(a.url, '/api/authenticated')).status).toBe(200);
      await u.get(b.url, '/api/auth/logout');
      await expectEndedOn(a.url, u);

      const gone = await new HttpClient(publicUrl).signIn(a.url, 'to-be-removed');
      const info = await gone.get(a.url, '/api/user/info');
      expect((await gone.get(a.url, '/api/authenticated')).status).toBe(200);
      expect((await admin.post(b.url, '/api/admin/remove_user', { user_id: info.body._id })).status).toBe(200);
      await expectEndedOn(a.url, gone);
    });

    /**
     * On SQLite the next request sees the other process's write (its events file is read at the
     * start of every request); Redis and PostgreSQL push the news, which takes a few milliseconds.
     */
    async function expectEndedOn(base: string, client: HttpClient): Promise<void> {
      if (leg === 'sqlite') {
        expect((await client.get(base, '/api/authenticated')).status).toBe(401);
        return;
      }
      const ended = await within(1000, async () => (await client.get(base, '/api/authenticated')).status === 401);
      expect(ended).toBeGreaterThanOrEqual(0);
    }

    it('shares one wrong-flag limit across both processes', async () => {
      const u = await new HttpClient(publicUrl).signIn(a.url, 'guesser');
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await u.post(a.url, '/api/ctf/submit-flag', { flag: `no${i}`, challenge_id: ids[0] })).status);
      for (let i = 0; i < 4; i++) statuses.push((await u.post(b.url, '/api/ctf/submit-flag', { flag: `no${i}`, challenge_id: ids[0] })).status);
      expect(statuses.every((s) => s === 200)).toBe(true);
      const blocked = await u.post(b.url, '/api/ctf/submit-flag', { flag: 'flag{one}', challenge_id: ids[0] });
      expect(blocked.status).toBe(429);
      expect((await u.post(a.url, '/api/ctf/submit-flag', { flag: 'flag{one}', challenge_id: ids[0] })).status).toBe(429);
    });

    it("shows a solve through A on B's leaderboard and challenge list within one second", async () => {
      // Warm B's caches first, so the test proves invalidation rather than a cold read.
      await b.process.pid;
      const viewer = await new HttpClient(publicUrl).signIn(b.url, 'viewer');
      await viewer.get(b.url, '/api/info/leaderboard');
      await viewer.get(b.url, '/api/ctf/challenges');
      const solver = await new HttpClient(publicUrl).signIn(a.url, 'fast-solver');
      const r = await solver.post(a.url, '/api/ctf/submit-flag', { flag: 'flag{two}', challenge_id: ids[1] });
      expect(r.body.message).toBe('Correct Flag!');
      const board = await within(1000, async () =>
        ((await viewer.get(b.url, '/api/info/leaderboard')).body as { name: string }[]).some((e) => e.name === 'fast-solver'),
      );
      expect(board).toBeGreaterThanOrEqual(0);
      const list = await within(1000, async () =>
        ((await viewer.get(b.url, '/api/ctf/challenges')).body as { _id: string; user_completions: number }[]).some(
          (c) => c._id === ids[1] && c.user_completions === 1,
        ),
      );
      expect(list).toBeGreaterThanOrEqual(0);
    });

    it('holds the 4-member cap when accepts race across both processes', async () => {
      const leader = await new HttpClient(publicUrl).signIn(a.url, 'mp-leader');
      expect((await leader.post(a.url, '/api/team/create', { team_name: 'Racers' })).status).toBe(200);
      const joiners = await Promise.all(
        [1, 2, 3, 4, 5, 6].map((i) => new HttpClient(publicUrl).signIn(i % 2 ? a.url : b.url, `mp-joiner-${i}`)),
      );
      for (const j of joiners) expect((await j.post(b.url, '/api/team/request', { team_name: 'Racers' })).status).toBe(200);
      const info = await leader.get(a.url, '/api/team/info');
      const requests = info.body.join_requests as { _id: string; checksum: string }[];
      expect(requests).toHaveLength(6);
      const results = await Promise.all(
        requests.map((req, i) =>
          leader.post(i % 2 ? a.url : b.url, '/api/team/add-member', { request_id: req._id, checksum: req.checksum }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(3);
      const after = await leader.get(b.url, '/api/team/info');
      expect(after.body.memberCount).toBe(4);
      expect(after.body.members).toHaveLength(4);
    });

    it.runIf(nginxAvailable())('serves the same through nginx in front of both processes', async () => {
      const base = publicUrl;
      // The trial sign-in answers only a loopback client with no proxy header, so it is made on A
      // directly; the session then works through nginx like any other.
      const u = await new HttpClient(publicUrl).signIn(a.url, 'via-nginx');
      const seen = new Set<string>();
      for (let i = 0; i < 6; i++) {
        const r = await u.get(base, '/api/user/info');
        expect(r.body.username).toBe('via-nginx');
        seen.add(String(r.headers.get('date')));
      }
      const r = await u.post(base, '/api/ctf/submit-flag', { flag: ' flag{three} ', challenge_id: ids[2] });
      expect(r.body.message).toBe('Correct Flag!');
      const t = await within(1000, async () =>
        ((await u.get(base, '/api/info/leaderboard')).body as { name: string }[]).some((e) => e.name === 'via-nginx'),
      );
      expect(t).toBeGreaterThanOrEqual(0);
      const page = await fetch(`${base}/compete`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    });

    it.runIf(leg === 'postgres' && PrivateRedis.available())(
      'reports Redis down, fails submissions closed with 503, and recovers without a restart',
      async () => {
        const u = await new HttpClient(publicUrl).signIn(a.url, 'redis-watcher');
        await redis.stop();
        const down = await within(5000, async () => (await u.get(b.url, '/api/health')).body?.redis === false);
        expect(down).toBeGreaterThanOrEqual(0);
        expect((await u.get(b.url, '/api/health')).body.status).toBe('degraded');
        const refused = await u.post(b.url, '/api/ctf/submit-flag', { flag: 'nope', challenge_id: ids[0] });
        expect(refused.status).toBe(503);
        expect(refused.body.message).toMatch(/unavailable/i);
        await redis.start(redis.port);
        const up = await within(10_000, async () => (await u.get(b.url, '/api/health')).body?.redis === true);
        expect(up).toBeGreaterThanOrEqual(0);
        const ok = await u.post(b.url, '/api/ctf/submit-flag', { flag: 'nope', challenge_id: ids[0] });
        expect(ok.status).toBe(200);
        expect(ok.body.message).toBe('Incorrect Flag!');
      },
    );
  });
}

describe('WORKERS=2 on one port', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ WORKERS: '2', SESSION_SECRET: SECRET });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves from two processes that agree on sessions, limits and caches', async () => {
    // /api/health answers once the first worker listens; until the second one does, the first is
    // alone on the database and counts wrong flags in its own memory (lone-process-rate-limiter.ts),
    // counts it drops when its sibling appears. The primary says when both listen.
    await expect.poll(() => server.output(), { timeout: 15_000 }).toContain('with 2 workers');
    const admin = await new HttpClient(server.url).signIn(server.url, 'w-admin', true);
    const [id] = await setUpEvent(admin, server.url, ['flag{workers}']);
    const viewer = await new HttpClient(server.url).signIn(server.url, 'w-viewer');
    // Warm both workers' caches (the cluster hands connections out round-robin).
    for (let i = 0; i < 6; i++) await fetch(`${server.url}/api/info/leaderboard`, { headers: { cookie: viewer.cookie } });
    const solver = await new HttpClient(server.url).signIn(server.url, 'w-solver');
    for (let i = 0; i < 10; i++) await solver.post(server.url, '/api/ctf/submit-flag', { flag: 'nope', challenge_id: id });
    expect((await solver.post(server.url, '/api/ctf/submit-flag', { flag: 'flag{workers}', challenge_id: id })).status).toBe(429);
    const other = await new HttpClient(server.url).signIn(server.url, 'w-solver-2');
    expect((await other.post(server.url, '/api/ctf/submit-flag', { flag: 'flag{workers}', challenge_id: id })).body.message).toBe(
      'Correct Flag!',
    );
    const seen = await within(1000, async () => {
      const reads = await Promise.all(
        Array.from({ length: 6 }, () =>
          fetch(`${server.url}/api/info/leaderboard`, { headers: { cookie: viewer.cookie } }).then((r) => r.json()),
        ),
      );
      return reads.every((b: { name: string }[]) => b.some((e) => e.name === 'w-solver-2'));
    });
    expect(seen).toBeGreaterThanOrEqual(0);
  });
});
