import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { createTestDatabase } from '../../../test/databases.js';
import { openEventStream } from '../../../test/sse-client.js';
import { insertOutboxMessage } from '../webhooks/webhooks.repo.js';
import {
  flushSubmissionLog,
  logAttempt,
  pendingAttemptCount,
} from '../submission-log/submission-log.service.js';

const TOKEN = 'metrics-token-metrics-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };

/** The value of one sample line (`name{labels} value`), or undefined when it is absent. */
function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((l) => l.startsWith(line + ' '));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('GET /metrics while METRICS_TOKEN is unset', () => {
  it('answers 404 and the site measures nothing', async () => {
    const t = await buildTestApp('sqlite');
    try {
      const res = await t.visitor().get('/metrics', auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Not found', code: 'not_found' });
    } finally {
      await t.close();
    }
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite', { METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => t.close());
  const scrape = async () => {
    const res = await t.visitor().get('/metrics', auth);
    expect(res.status).toBe(200);
    return res.text;
  };

  it('refuses a caller without the token, or with another one: 401', async () => {
    const none = await t.visitor().get('/metrics');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect((await t.visitor().get('/metrics', { authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    expect((await t.visitor().get('/metrics', { authorization: TOKEN })).status).toBe(401);
  });

  it('counts requests by route and status, with a latency histogram', async () => {
    const before = await scrape();
    const line = 'http_requests_total{route="/api/health",method="GET",status="200"}';
    const ok = sample(before, line) ?? 0;
    for (let i = 0; i < 3; i++) expect((await t.visitor().get('/api/health')).status).toBe(200);
    expect((await t.visitor().post('/api/ctf/submit-flag', { challenge_id: 1, flag: 'x' })).status).toBe(401);
    const after = await scrape();
    expect(after).toMatch(/^# TYPE http_requests_total counter$/m);
    expect(sample(after, line)).toBe(ok + 3);
    expect(
      sample(after, 'http_requests_total{route="/api/ctf/submit-flag",method="POST",status="401"}'),
    ).toBe(1);
    expect(sample(after, 'http_request_duration_seconds_count{route="/api/health",method="GET"}')).toBe(
      ok + 3,
    );
    expect(
      sample(after, 'http_request_duration_seconds_bucket{le="+Inf",route="/api/health",method="GET"}'),
    ).toBe(ok + 3);
    expect(sample(after, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('reports the outbox depth and the submission log queue', async () => {
    expect(sample(await scrape(), 'ctf_webhook_outbox_depth')).toBe(0);
    await insertOutboxMessage(t.ctx.database.db, { kind: 'site', payload: '{}', at: Date.now() });
    expect(sample(await scrape(), 'ctf_webhook_outbox_depth')).toBe(1);

    const user = (await t.login('queued')).user!;
    // The queue is written within a second: read it when no write happened during the scrape.
    await waitFor(async () => {
      for (let i = 0; i < 3; i++)
        logAttempt(t.ctx, user, { challengeId: 1, result: 'wrong', submitted: 'x', address: '127.0.0.1' });
      const pending = pendingAttemptCount(t.ctx);
      const value = sample(await scrape(), 'ctf_submission_log_queue');
      if (pendingAttemptCount(t.ctx) !== pending) return false;
      expect(pending).toBeGreaterThan(0);
      expect(value).toBe(pending);
      return true;
    }, 'a scrape between two writes');
    await flushSubmissionLog(t.ctx);
    expect(sample(await scrape(), 'ctf_submission_log_queue')).toBe(0);
  });

  it('reports the open event streams', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address() as { port: number };
    const stream = await openEventStream(`http://127.0.0.1:${address.port}`);
    expect(stream.status).toBe(200);
    expect(sample(await scrape(), 'ctf_event_streams_open')).toBe(1);
    stream.close();
    await waitFor(async () => sample(await scrape(), 'ctf_event_streams_open') === 0, 'the stream to close');
  });
});

describe('GET /metrics under WORKERS=2', () => {
  let server: ChildProcess | undefined;
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
    await drop?.();
  });

  it('answers one sum for every worker', { timeout: 90_000 }, async () => {
    const database = await createTestDatabase('sqlite');
    drop = database.drop;
    const port = await freePort();
    const main = fileURLToPath(new URL('../../main.ts', import.meta.url));
    server = spawn(process.execPath, ['--import', 'tsx', main], {
      env: {
        ...process.env,
        WORKERS: '2',
        PORT: String(port),
        DATA_DIR: database.dataDir,
        SESSION_SECRET: 'test-secret-test-secret-test-secret-0123456789',
        METRICS_TOKEN: TOKEN,
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    server.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const base = `http://127.0.0.1:${port}`;
    await waitFor(async () => out.includes('with 2 workers'), 'both workers to listen', 50_000);
    // Each request on a new connection: the primary hands connections to the workers in turn.
    const requests = 20;
    for (let i = 0; i < requests; i++) {
      const res = await fetch(`${base}/api/health`, { headers: { connection: 'close' } });
      expect(res.status).toBe(200);
    }
    const line = 'http_requests_total{route="/api/health",method="GET",status="200"}';
    await waitFor(async () => {
      const res = await fetch(`${base}/metrics`, { headers: { ...auth, connection: 'close' } });
      expect(res.status).toBe(200);
      return sample(await res.text(), line) === requests;
    }, `the sum of both workers to reach ${requests}`);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
