import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeDiscord } from '../server/test/fake-discord.js';
import { HttpClient } from './support/http.js';
import { startServer, type RunningServer } from './support/server.js';
import { createPostgresDatabase } from './support/services.js';

/**
 * Issue 15: every Discord message is delivered exactly once, also after a kill -9 between enqueue
 * and send. The real server runs as a child process; a fake Discord receiver holds the first
 * message's request open (the send is under way) while the others wait in the outbox; the server
 * is killed with SIGKILL and started again on the same data. The receiver then counts each message
 * exactly once. On PostgreSQL a second process runs beside the killed one and sends what it can.
 */

const legs: ('sqlite' | 'postgres')[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const SECRET = 'webhook-durability-secret-0123456789-abcdefghij';
/** The claim of a message whose sender died expires after the server's lease (30 s), then it is sent again. */
const until = (check: () => void | Promise<void>) => vi.waitFor(check, { timeout: 60_000, interval: 100 });

const fake = new FakeDiscord();
beforeAll(() => fake.start());
afterAll(() => fake.stop());

async function kill9(server: RunningServer): Promise<void> {
  const exited = new Promise((r) => server.process.once('exit', r));
  server.process.kill('SIGKILL');
  await exited;
}

const titles = () => fake.delivered.map((d) => /\*\*(.+?)\*\*/.exec(d.content)?.[1]).sort();

for (const leg of legs) {
  describe(`the webhook outbox through a kill -9 on ${leg}`, () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ctf-webhook-'));
    const servers: RunningServer[] = [];
    let dropDb: (() => Promise<void>) | null = null;
    afterEach(async () => {
      for (const s of servers.splice(0)) await s.stop();
      await dropDb?.();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('delivers every message exactly once: the one being sent and those still waiting', async () => {
      fake.reset(['hang']);
      const env: Record<string, string> = {
        DATA_DIR: dataDir,
        SESSION_SECRET: SECRET,
        DISCORD_WEBHOOK_URL: fake.url,
        WEBHOOK_EVENTS: 'announcements',
      };
      if (leg === 'postgres') {
        const db = await createPostgresDatabase();
        dropDb = db.drop;
        env.DATABASE_URL = db.url;
      }
      const first = await startServer(env);
      servers.push(first);
      const admin = await new HttpClient(first.url).signIn(first.url, 'webhook-admin', true);
      for (const title of ['Kill one', 'Kill two', 'Kill three']) {
        const res = await admin.post(first.url, '/api/admin/announcements/create', { title, body: 'x' });
        expect(res.status, res.text).toBe(200);
      }
      // The first message is being sent (the receiver holds it); the other two wait behind it.
      await until(() => expect(fake.requests).toBe(1));
      const status = await admin.get(first.url, '/api/admin/webhook/status');
      expect(status.body.pending).toBe(3);
      expect(fake.delivered).toEqual([]);

      let other: RunningServer | null = null;
      if (leg === 'postgres') {
        // A second process on the same database sends the waiting messages, not the claimed one.
        other = await startServer({ ...env, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'ctf-webhook-2-')) });
        servers.push(other);
        await until(() => expect(titles()).toEqual(['Kill three', 'Kill two']));
      }

      await kill9(first);
      const restarted = await startServer(env);
      servers.push(restarted);
      await until(() => expect(titles()).toEqual(['Kill one', 'Kill three', 'Kill two']));
      // Nothing is left to send, so nothing more can arrive: each message was delivered once.
      const again = await new HttpClient(restarted.url).signIn(restarted.url, 'webhook-admin', true);
      await until(async () =>
        expect((await again.get(restarted.url, '/api/admin/webhook/status')).body.pending).toBe(0),
      );
      expect(titles()).toEqual(['Kill one', 'Kill three', 'Kill two']);
      // One held request, then one delivery each.
      expect(fake.requests).toBe(4);
      for (const d of fake.delivered) expect(d.allowed_mentions).toEqual({ parse: [] });
    }, 120_000);
  });
}
