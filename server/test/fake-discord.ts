import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { WEBHOOK_TIMING } from '../src/modules/webhooks/webhooks.service.js';

export type Mode = 500 | 429 | 'hang' | 200;

/** A stand-in for Discord's execute-webhook endpoint: answers each request as scripted, then 204. */
export class FakeDiscord {
  private server = http.createServer((req, res) => this.handle(req, res));
  private readonly hung = new Set<http.ServerResponse>();
  script: Mode[] = [];
  requests = 0;
  delivered: { content: string; allowed_mentions: unknown }[] = [];
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/webhooks/1/token`;
  }

  reset(script: Mode[] = []): void {
    this.script = script;
    this.requests = 0;
    this.delivered = [];
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      this.requests += 1;
      const mode = this.script.shift() ?? 200;
      if (mode === 'hang') {
        this.hung.add(res);
        return;
      }
      if (mode === 429) {
        res.writeHead(429, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'You are being rate limited.', retry_after: 0.05, global: false }));
        return;
      }
      if (mode === 500) {
        res.writeHead(500).end();
        return;
      }
      this.delivered.push(JSON.parse(body) as { content: string; allowed_mentions: unknown });
      res.writeHead(204).end();
    });
  }

  async stop(): Promise<void> {
    for (const r of this.hung) r.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * A FakeDiscord started before this file's tests and stopped after them, with the outbox's timing
 * shortened meanwhile (polls and back-offs of tens of milliseconds) so that retries happen while a
 * test waits for them; the timing is put back afterwards.
 */
export function fakeDiscordWithFastRetries(): FakeDiscord {
  const fake = new FakeDiscord();
  const saved = { ...WEBHOOK_TIMING };
  beforeAll(async () => {
    await fake.start();
    Object.assign(WEBHOOK_TIMING, {
      pollMs: 20,
      timeoutMs: 300,
      leaseMs: 2000,
      backoffMs: 20,
      maxBackoffMs: 100,
    });
  });
  afterAll(async () => {
    Object.assign(WEBHOOK_TIMING, saved);
    await fake.stop();
  });
  return fake;
}
