import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.js';
import { ConfigError, loadConfig } from '../../config.js';
import type { AppContext } from '../../context.js';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/build-test-app.js';
import { addChallenge, makeTeam, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { fakeDiscordWithFastRetries } from '../../../test/fake-discord.js';
import { createAnnouncement } from '../announcements/announcements.service.js';
import { WEBHOOK_TIMING } from './webhooks.service.js';

const fake = fakeDiscordWithFastRetries();

/** The test clock made to tick with real time (retries are scheduled on it), plus `skip`. */
function tick(clock: TestApp['clock']): { skip: (ms: number) => void } {
  const base = clock.now().getTime() - Date.now();
  let offset = 0;
  vi.spyOn(clock, 'now').mockImplementation(() => new Date(Date.now() + base + offset));
  return { skip: (ms) => void (offset += ms) };
}

const until = (check: () => void | Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 20 });

describe('DISCORD_WEBHOOK_URL', () => {
  it('stops start-up with one line naming it when malformed', () => {
    expect(() => loadConfig({ DISCORD_WEBHOOK_URL: 'discord.com/api/webhooks/1' })).toThrow(ConfigError);
    expect(() => loadConfig({ DISCORD_WEBHOOK_URL: 'discord.com/api/webhooks/1' })).toThrow(
      /^Invalid configuration: DISCORD_WEBHOOK_URL: .*$/,
    );
    expect(() =>
      loadConfig({ DISCORD_WEBHOOK_URL: 'https://x.test/', WEBHOOK_EVENTS: 'everything' }),
    ).toThrow(/WEBHOOK_EVENTS/);
  });
});

for (const kind of testDatabaseKinds()) {
  describe(`Discord webhook on ${kind}`, () => {
    let t: TestApp;
    let admin: TestClient;
    let clock: { skip: (ms: number) => void };
    const logs: string[] = [];
    beforeEach(async () => {
      fake.reset();
      logs.length = 0;
      t = await buildTestApp(
        kind,
        {
          DISCORD_WEBHOOK_URL: fake.url,
          WEBHOOK_EVENTS: 'announcements,first-blood,site',
          LOG_LEVEL: 'warn',
        },
        { logStream: { write: (line) => void logs.push(line) } },
      );
      admin = await t.login('boss', { admin: true });
      clock = tick(t.clock);
    });
    afterEach(async () => {
      vi.restoreAllMocks();
      await t.close();
    });

    const pending = async () => (await admin.get('/api/admin/webhook/status')).body.pending as number;

    it('delivers once through a 500, a 429 with retry_after and a hang, without mentions, and reports its state', async () => {
      fake.reset([500, 429, 'hang', 200]);
      const res = await admin.post('/api/admin/announcements/create', {
        title: '@everyone Start',
        body: 'Go **now**',
      });
      expect(res.status).toBe(200);
      await until(() => expect(fake.delivered).toHaveLength(1));
      expect(fake.requests).toBe(4);
      expect(fake.delivered[0]).toEqual({
        content: expect.stringContaining('**\\@everyone Start**'),
        allowed_mentions: { parse: [] },
      });
      await until(async () => expect(await pending()).toBe(0));
      const status = await admin.get('/api/admin/webhook/status');
      expect(status.body).toEqual({
        configured: true,
        events: ['announcements', 'first-blood', 'site'],
        pending: 0,
        last_success_at: expect.any(String),
        last_error: expect.stringMatching(/timed out|HTTP 429|HTTP 500/),
      });
    });

    it('sends the site switch and first bloods', async () => {
      await admin.post('/api/admin/update_site_info', { activated: true });
      await until(() => expect(fake.delivered.map((d) => d.content)).toEqual(['🟢 The CTF is open.']));
      const c = await addChallenge(t, { name: 'Baby RSA' });
      const ann = await t.login('ann');
      const bob = await t.login('bob');
      await ann.post('/api/ctf/submit-flag', { challenge_id: String(c.id), flag: c.flag });
      await bob.post('/api/ctf/submit-flag', { challenge_id: String(c.id), flag: c.flag });
      await until(() => expect(fake.delivered).toHaveLength(2));
      expect(fake.delivered[1]!.content).toBe('🩸 First blood on **Baby RSA** by **ann**');
    });

    it('escapes Discord Markdown in every name it sends: no masked link, bold, spoiler or mention', async () => {
      await openSite(t);
      const c = await addChallenge(t, { name: '**Bold** ||spoiler|| <@&123>' });
      const eve = await t.login('eve');
      await makeTeam(t, '[Claim prize](https://evil.tk/x)', [eve.user!.id]);
      await eve.post('/api/ctf/submit-flag', { challenge_id: String(c.id), flag: c.flag });
      await createAnnouncement(t.ctx, {
        title: '# ~~Title~~ `x` > _y_',
        body: 'The **body** stays Markdown',
        pinned: false,
      });
      await until(() => expect(fake.delivered).toHaveLength(3));
      const contents = fake.delivered.map((d) => d.content);
      expect(contents).toContain(
        '🩸 First blood on **\\*\\*Bold\\*\\* \\|\\|spoiler\\|\\| \\<\\@&123\\>** by **\\[Claim prize\\]\\(https\\://evil\\.tk/x\\)**',
      );
      expect(contents).toContain(
        `📢 **\\# \\~\\~Title\\~\\~ \\\`x\\\` \\> \\_y\\_**\nThe **body** stays Markdown\n${t.config.publicUrl}/announcements`,
      );
    });

    it('drops a message still undelivered after 24 hours, with a log line', async () => {
      fake.reset(Array.from({ length: 1000 }, () => 500 as const));
      await createAnnouncement(t.ctx, { title: 'Doomed', body: 'x', pinned: false });
      await until(() => expect(fake.requests).toBeGreaterThan(0));
      clock.skip(24 * 60 * 60_000 + 1000);
      await until(async () => expect(await pending()).toBe(0));
      expect(logs.join('')).toMatch(/webhook: dropped announcements message #\d+ after 24 h undelivered/);
      expect(fake.delivered).toHaveLength(0);
    });

    it('answers 401 to visitors and 403 to participants on the status', async () => {
      expect((await t.visitor().get('/api/admin/webhook/status')).status).toBe(401);
      expect((await (await t.login('player')).get('/api/admin/webhook/status')).status).toBe(403);
    });
  });

  describe(`Discord webhook with two processes on ${kind}`, () => {
    let t: TestApp;
    let other: { app: TestApp['app']; ctx: AppContext };
    beforeEach(async () => {
      fake.reset();
      t = await buildTestApp(kind, { DISCORD_WEBHOOK_URL: fake.url });
      tick(t.clock);
      other = await buildApp(t.config, { clock: t.clock, logger: false });
      await other.app.ready();
    });
    afterEach(async () => {
      vi.restoreAllMocks();
      await other.app.close();
      await t.close();
    });

    it('delivers every message exactly once, whichever process wrote it', async () => {
      fake.reset([500, 429, 'hang']);
      for (let i = 0; i < 10; i++) {
        await createAnnouncement(i % 2 ? t.ctx : other.ctx, { title: `News ${i}`, body: 'x', pinned: false });
      }
      await until(() => expect(fake.delivered).toHaveLength(10));
      // Every message once, and no more arrive.
      await new Promise((r) => setTimeout(r, 3 * WEBHOOK_TIMING.pollMs));
      const titles = fake.delivered.map((d) => /\*\*(News \d)\*\*/.exec(d.content)![1]).sort();
      expect(titles).toEqual(Array.from({ length: 10 }, (_, i) => `News ${i}`));
    });
  });

  describe(`the outbox across a restart on ${kind}`, () => {
    it('keeps a message written by a process that stopped before sending it, and the next one sends it once', async () => {
      fake.reset();
      // A process that records the announcement but dies before its sender runs (never ready).
      const first = await buildTestApp(kind, { DISCORD_WEBHOOK_URL: fake.url });
      const config = first.config;
      await first.app.close();
      const writer = await buildApp(config, { clock: first.clock, logger: false });
      await createAnnouncement(writer.ctx, { title: 'Survivor', body: 'x', pinned: false });
      await writer.app.close();
      expect(fake.requests).toBe(0);

      const next = await buildApp(config, { clock: first.clock, logger: false });
      await next.app.ready();
      await until(() => expect(fake.delivered).toHaveLength(1));
      expect(fake.delivered[0]!.content).toContain('Survivor');
      await next.app.close();
      await first.database.drop();
    });
  });
}
