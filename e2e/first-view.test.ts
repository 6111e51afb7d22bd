import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEvent } from '../bench/seed.js';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { createChallenge } from '../server/src/modules/challenges/challenges.service.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { complaintsOf, expectStillAsTheStylesheetArrives, slowPhone } from './support/first-view.js';
import { startServer, type RunningServer } from './support/server.js';
import { localSignIn } from './support/session.js';

const run = browserAvailable();
const SECRET = 'e2e-first-view-secret-0123456789-abcdefghij';

/**
 * The first views the server renders, in a real browser: the page's content is in the HTML the
 * server sends, the browser hydrates it without a mismatch and without asking again for what the
 * page carried, and the page then lives as before (the caller's own parts, live refresh, the theme).
 */
describe.runIf(run)('server-rendered first views in Chromium', { timeout: 120_000 }, () => {
  let dataDir: string;
  let server: RunningServer;
  let browser: Browser;
  let player: BrowserContext;
  let token = '';

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'ctf-e2e-first-view-'));
    const env = { DATA_DIR: dataDir, SESSION_SECRET: SECRET, LOG_LEVEL: 'silent' };
    const { app, ctx } = await buildApp(loadConfig(env), { logger: false });
    const event = await seedEvent(ctx, {
      users: 120,
      teams: 0,
      challenges: 8,
      solves: 600,
      files: 0,
      sessions: 4,
    });
    // A description whose preview the server reads as the browser does (entities, blocks, a list).
    await createChallenge(ctx, {
      name: 'Tricky preview',
      description:
        '<h2>Intro</h2><p>Find the <strong>flag</strong> &amp; &lt;win&gt;&nbsp;now:</p><ul><li>one 🚩</li><li>two</li></ul><pre>x  =  1</pre>',
      category: 'Web Exploitation',
      difficulty: 'Easy',
      written_by: 'club',
      flag: 'flag{tricky}',
      files: [],
    });
    await app.close();
    token = event.sessions[0]!.token;
    server = await startServer({ DATA_DIR: dataDir, SESSION_SECRET: SECRET });
    browser = await launchBrowser();
    player = await browser.newContext();
    await player.addCookies([{ name: 'ctf_session', value: token, url: server.url }]);
  });
  afterAll(async () => {
    await player?.close();
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("sends the leaderboard's podium and first rows in its HTML, with the answers it was drawn from", async () => {
    const res = await fetch(`${server.url}/leaderboard`, { headers: { cookie: `ctf_session=${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    const html = await res.text();
    expect(html).toContain('<h1>Leaderboard</h1>');
    expect(html).toContain('data-testid="podium-entry"');
    expect(html.match(/data-testid="leaderboard-entry"/g)?.length).toBeGreaterThan(5);
    expect(html).toContain('<script type="application/json" id="first-view-data">');
    // The same rows the API sends a visitor.
    const api = (await (await fetch(`${server.url}/api/info/leaderboard?limit=50&offset=0`)).json()) as {
      name: string;
    }[];
    expect(html).toContain(`>${api[0]!.name.replace(/&/g, '&amp;').replace(/</g, '&lt;')}<`);
    // A visitor is not drawn a user page: the browser sends them to /login.
    const visitor = await (await fetch(`${server.url}/leaderboard`)).text();
    expect(visitor).not.toContain('first-view-data');
  });

  it('hydrates the leaderboard without a mismatch on a slow phone, light and dark, load after load', async () => {
    // The caller's rank (and the navbar's user) must not reach the page before it has hydrated:
    // on a slow CPU the page's boundary hydrates well after the layout around it.
    for (const colorScheme of ['light', 'dark', 'light', 'dark'] as const) {
      const context = await browser.newContext({ colorScheme, viewport: { width: 412, height: 823 } });
      await context.addCookies([{ name: 'ctf_session', value: token, url: server.url }]);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const complaints = complaintsOf(page);
      await page.goto(`${server.url}/leaderboard`);
      await page.getByRole('button', { name: 'My position' }).waitFor();
      await page.getByRole('region', { name: 'Podium' }).waitFor();
      expect(complaints, colorScheme).toEqual([]);
      await context.close();
    }
  });

  it('paints each server-rendered page as it stays: nothing moves when the stylesheet arrives', async () => {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    await context.addCookies([{ name: 'ctf_session', value: token, url: server.url }]);
    for (const p of ['/', '/leaderboard', '/compete', '/rules', '/announcements'])
      await expectStillAsTheStylesheetArrives(context, `${server.url}${p}`);
    await context.close();
  });

  it('hydrates the leaderboard without a second request for its first page, then adds "My position"', async () => {
    const page = await player.newPage();
    const complaints = complaintsOf(page);
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/info/leaderboard')) asked.push(new URL(r.url()).search);
    });
    await page.goto(`${server.url}/leaderboard`);
    // The caller's own part comes after hydration.
    await page.getByRole('button', { name: 'My position' }).waitFor();
    // The first page came with the HTML; only the caller's rank was asked for.
    expect(asked).toEqual(['?around=me&limit=1']);
    await page.getByRole('button', { name: 'My position' }).click();
    await expect.poll(() => page.getByTestId('position-note').count()).toBe(1);
    expect(complaints).toEqual([]);
    await page.close();
  });

  it("draws Compete's cards in its HTML and hydrates them on a slow phone without a mismatch or a request for what it carried", async () => {
    const res = await fetch(`${server.url}/compete`, { headers: { cookie: `ctf_session=${token}` } });
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    const html = await res.text();
    expect(html).toContain('<h1>Compete</h1>');
    // The cards the player's default filters show (those their record says are not solved yet).
    const drawn = html.match(/data-testid="challenge-card"/g)?.length ?? 0;
    expect(drawn).toBeGreaterThan(0);
    expect(html).toContain('Intro Find the flag &amp; &lt;win&gt;');
    // A visitor is not drawn a user page: the browser sends them to /login.
    expect(await (await fetch(`${server.url}/compete`)).text()).not.toContain('first-view-data');

    const { context, page, complaints, asked } = await slowPhone(browser, server.url, token);
    await page.goto(`${server.url}/compete`);
    // The same cards once live (their marks were the server's too); then the filters work.
    const cards = page.getByTestId('challenge-card');
    await page.getByRole('list', { name: 'Challenges' }).waitFor();
    const before = await cards.count();
    expect(before).toBe(drawn);
    await page.getByLabel('Search').fill('Tricky');
    await expect.poll(() => cards.count()).toBeLessThan(before);
    expect(await cards.first().innerText()).toContain('Find the flag & <win>');
    expect(complaints).toEqual([]);
    expect(asked).not.toContain('/api/ctf/challenges');
    expect(asked).not.toContain('/api/user/info');
    await context.close();
  });

  it('hydrates home, rules and announcements in the dark theme without a mismatch; the theme button then says so', async () => {
    const context = await browser.newContext({ colorScheme: 'dark' });
    for (const p of ['/', '/rules', '/announcements']) {
      const page = await context.newPage();
      const complaints = complaintsOf(page);
      const html = await (await fetch(`${server.url}${p}`)).text();
      expect(html, p).toContain('first-view-data');
      await page.goto(`${server.url}${p}`);
      const toggle = page.getByRole('button', { name: 'Dark theme' });
      await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
      if (p === '/') {
        // The countdown ticks and the FAQ is there once the page is live.
        await expect.poll(() => page.getByRole('region', { name: 'FAQ' }).count()).toBe(1);
        await expect.poll(() => page.getByTestId('countdown').getByRole('heading').count()).toBe(1);
      }
      expect(complaints, p).toEqual([]);
      await page.close();
    }
    await context.close();
  });

  it('keeps a hydrated page live: an announcement made while it is open shows on /announcements', async () => {
    const admin = await browser.newContext();
    await localSignIn(admin, server.url, 'first-view-admin', true);
    const page = await player.newPage();
    const complaints = complaintsOf(page);
    const streamOpen = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events');
    await page.goto(`${server.url}/announcements`);
    expect((await streamOpen).status()).toBe(200);
    const res = await admin.request.post(`${server.url}/api/admin/announcements/create`, {
      data: { title: 'Hydrated and live', body: 'Still **live**.' },
      headers: { origin: server.url },
    });
    expect(res.status(), await res.text()).toBe(200);
    await expect.poll(() => page.getByRole('heading', { name: 'Hydrated and live' }).count()).toBe(1);
    // A link of the hydrated navbar moves within the app (no new document).
    let documents = 0;
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) documents++;
    });
    await page.getByRole('link', { name: 'Leaderboard', exact: true }).click();
    await page.getByRole('heading', { name: 'Leaderboard', level: 1 }).waitFor();
    expect(documents).toBeLessThanOrEqual(1);
    expect(complaints).toEqual([]);
    await page.close();
    await admin.close();
  });
});
