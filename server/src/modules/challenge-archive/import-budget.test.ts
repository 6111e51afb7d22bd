import { CHALLENGE_ARCHIVE_LIMITS, CHALLENGE_IMPORT_BUSY } from '@ctf/contract';
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { BASICS, archive, multipart } from '../../../test/archive-upload.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { freePort } from '../../../test/private-redis.js';
import { writeZip } from '../../lib/zip.js';
import { importRunning } from './import-slot.js';

/**
 * Imports within a memory budget: one import or dry run at a time per process (the others wait
 * their turn, then 429), and a ZIP bomb refused from its central directory before anything is
 * inflated. The last test measures the peak memory of the built server under twelve parallel dry
 * runs of a ~600 KB archive that unpacks to 210 MB.
 */

const MB = 1024 * 1024;

/** 21 entries of 10 MB (each under the per-entry limit), 210 MB together, about 600 KB zipped. */
function zipBomb(): Buffer {
  const entry = Buffer.alloc(10 * MB);
  let seed = 1;
  // A byte of noise every 1.6 KB, so that it deflates to ~30 KB rather than ~10.
  for (let i = 0; i < entry.length; i += 1600) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    entry[i] = seed >>> 24;
  }
  const data = deflateRawSync(entry, { level: 9 });
  return writeZip([
    { name: 'bomb/challenge.yml', data: Buffer.from(BASICS) },
    ...Array.from({ length: 21 }, (_, i) => ({
      name: `bomb/part${i}.bin`,
      data,
      method: 8 as const,
      size: entry.length,
    })),
  ]);
}

for (const kind of testDatabaseKinds()) {
  describe(`one import at a time on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;
    beforeAll(async () => {
      t = await buildTestApp(kind);
      admin = await t.login('boss', { admin: true });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
    });
    afterAll(async () => {
      await t.close();
    });

    /**
     * An import over a real connection whose upload the test holds open (the headers and the
     * first bytes sent): it has the slot until release() sends the rest.
     */
    async function heldImport() {
      const { payload, headers } = multipart('held.zip', archive({ 'held/challenge.yml': BASICS }));
      const { port } = t.app.server.address() as AddressInfo;
      const request = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/admin/ctf/import?dry_run=1',
        headers: {
          ...headers,
          'content-length': String(payload.length),
          origin: 'http://localhost:3000',
          cookie: admin.cookie!,
        },
      });
      const answer = new Promise<number>((resolve, reject) => {
        request.on('response', (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        request.on('error', reject);
      });
      request.write(payload.subarray(0, 100));
      // Its turn is taken once the server has begun to read it.
      await expect.poll(() => importRunning(t.ctx), { timeout: 5000 }).toBe(true);
      return { answer, release: () => request.end(payload.subarray(100)) };
    }

    it('makes a second import wait, then answers 429 while the first still runs', async () => {
      const first = await heldImport();
      const started = Date.now();
      const { payload, headers } = multipart('b.zip', archive({ 'b/challenge.yml': BASICS }));
      const second = await admin.post('/api/admin/ctf/import?dry_run=1', payload, headers);
      expect(second.status).toBe(429);
      expect(second.body).toMatchObject({ message: CHALLENGE_IMPORT_BUSY, code: 'rate_limited' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(CHALLENGE_ARCHIVE_LIMITS.importWaitMs - 50);
      // The sample challenges are an import too.
      expect((await admin.post('/api/admin/sample_challenges', {})).status).toBe(429);
      first.release();
      expect(await first.answer).toBe(200);
      // The slot is free again.
      expect((await admin.post('/api/admin/ctf/import?dry_run=1', payload, headers)).status).toBe(200);
    });

    it('gives the slot to a waiting import as soon as the running one ends', async () => {
      const first = await heldImport();
      const { payload, headers } = multipart('c.zip', archive({ 'c/challenge.yml': BASICS }));
      const second = admin.post('/api/admin/ctf/import?dry_run=1', payload, headers);
      first.release();
      expect(await first.answer).toBe(200);
      expect((await second).status).toBe(200);
    });

    it('refuses the bomb from its headers alone', async () => {
      const bomb = zipBomb();
      expect(bomb.length).toBeGreaterThan(500 * 1024);
      const { payload, headers } = multipart('bomb.zip', bomb);
      const res = await admin.post('/api/admin/ctf/import?dry_run=1', payload, headers);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toBe(
        `The archive unpacks to more than ${CHALLENGE_ARCHIVE_LIMITS.maxTotalBytes / MB} MB: refused (a ZIP bomb?).`,
      );
    });
  });
}

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const entry = path.join(root, 'server/dist/server.js');

/** A process's resident memory now and at its peak since the last reset, in bytes (Linux). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

describe.runIf(existsSync(entry) && existsSync('/proc/self/clear_refs'))('import memory', () => {
  it(
    'twelve parallel dry runs of a ZIP bomb stay under 100 MB over the idle server',
    { timeout: 120_000 },
    async () => {
      const port = await freePort();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'ctf-import-memory-'));
      const origin = `http://localhost:${port}`;
      // The server as `npm start` runs it (the same Node flags), on SQLite, with the local trial.
      const child = spawn(process.execPath, ['--max-semi-space-size=8', '--heap-growing-percent=25', entry], {
        cwd: dataDir,
        env: { PATH: process.env.PATH, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      try {
        const url = `http://127.0.0.1:${port}`;
        await expect
          .poll(
            () =>
              fetch(`${url}/api/health`).then(
                (r) => r.ok,
                () => false,
              ),
            { timeout: 30_000, message: stderr },
          )
          .toBe(true);
        const login = await fetch(`${url}/api/auth/local`, {
          method: 'POST',
          headers: { origin, 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'author', admin: true }),
        });
        expect(login.status).toBe(200);
        const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
        const dryRun = (zip: Buffer) => {
          const { payload, headers } = multipart('challenges.zip', zip);
          return fetch(`${url}/api/admin/ctf/import?dry_run=1`, {
            method: 'POST',
            headers: { ...headers, origin, cookie },
            body: payload,
          });
        };
        const bomb = zipBomb();
        // Warm up: the import's code paths loaded and compiled, one refusal and one dry run that passes.
        expect((await dryRun(bomb)).status).toBe(400);
        expect((await dryRun(archive({ 'w/challenge.yml': BASICS }))).status).toBe(200);
        const idle = memoryOf(child.pid!).rss;
        // Resets the peak (VmHWM) to the current resident size.
        writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
        const answers = await Promise.all(Array.from({ length: 12 }, () => dryRun(bomb)));
        const statuses = answers.map((r) => r.status);
        // Each is refused by the archive's rule, or told to come back (never a crash).
        expect(
          statuses.every((s) => s === 400 || s === 429),
          String(statuses),
        ).toBe(true);
        expect(statuses).toContain(400);
        const { peak } = memoryOf(child.pid!);
        const over = (peak - idle) / MB;
        console.log(
          `import memory: idle ${Math.round(idle / MB)} MB, peak ${Math.round(peak / MB)} MB, +${over.toFixed(1)} MB; answers ${statuses.join(',')}`,
        );
        expect(over).toBeLessThan(100);
      } finally {
        const exited = child.exitCode === null ? new Promise((r) => child.once('exit', r)) : null;
        child.kill('SIGTERM');
        await exited;
      }
    },
  );
});
