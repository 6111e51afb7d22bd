import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEvent } from '../bench/seed.js';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { createChallenge } from '../server/src/modules/challenges/challenges.service.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { localSignIn } from './support/session.js';

const run = browserAvailable();
const SECRET = 'e2e-first-view-secret-0123456789-abcdefghij';

/** Every console error and warning, and every uncaught error, of a page (a hydration mismatch is one). */
function complaintsOf(page: Page): string[] {
  const complaints: string[] = [];
  page.on('pageerror', (e) => complaints.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') complaints.push(m.text());
  });
  return complaints;
}

/**
 * A signed-in player's page on a mid-range phone (4x slower CPU, a phone's viewport), with its
 * complaints (a hydration mismatch is one) and the API paths it asks for.
 */
async function slowPhone(browser: Browser, serverUrl: string, token: string) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  await context.addCookies([{ name: 'ctf_session', value: token, url: serverUrl }]);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const complaints = complaintsOf(page);
  const asked: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/')) asked.push(url.pathname);
  });
  return { context, page, complaints, asked };
}

/**
 * On a slow link a page's HTML is painted before its stylesheet (linked at the end of the body)
 * arrives: the head must already carry every rule the page's content needs. The stylesheet and the
 * scripts are held until the HTML has been laid out, then the stylesheet alone is let through, and
 * nothing may have moved.
 */
async function expectStillAsTheStylesheetArrives(context: BrowserContext, url: string): Promise<void> {
  const page = await context.newPage();
  const held: { css: (() => void)[]; js: (() => void)[] } = { css: [], js: [] };
  await page.route(/\/assets\/.*\.(css|js)$/, (route) => {
    const kind = route.request().url().endsWith('.css') ? 'css' : 'js';
    held[kind].push(() => void route.continue());
  });
  const layout = () =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll('nav, main, main > * > *, main > * > * > *')).map((e) => {
        const r = e.getBoundingClientRect();
        return `${e.tagName}.${e.className} ${Math.round(r.top)} ${Math.round(r.left)} ${Math.round(r.width)}x${Math.round(r.height)}`;
      }),
    );
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator('main h1').waitFor();
  await expect.poll(() => held.css.length).toBeGreaterThan(0);
  const before = await layout();
  const sheet = page.waitForFunction(() =>
    Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')).every((l) => l.sheet),
  );
  for (const go of held.css.splice(0)) go();
  await sheet;
  expect(await layout(), url).toEqual(before);
  for (const go of held.js.splice(0)) go();
  await page.close();
}

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

/** Whether React has hydrated this element (it then holds its fiber): the page is live. */
async function hydrated(page: Page, selector: string): Promise<void> {
  await page.waitForFunction(
    (s) => Object.keys(document.querySelector(s) ?? {}).some((k) => k.startsWith('__reactFiber')),
    selector,
  );
}

/**
 * A challenge's page drawn by the server for a signed-in player during the event (a page whose
 * writeup panels the reader's clock decides, after it, stays browser-drawn): from their own answer
 * for it, hydrated without a mismatch or a second request for what it carried, then live.
 */
describe.runIf(run)('the challenge page rendered by the server, in Chromium', { timeout: 120_000 }, () => {
  let dataDir: string;
  let server: RunningServer;
  let browser: Browser;
  let token = '';
  let hinted = 0;
  let contained = 0;
  const DAY = 86_400_000;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'ctf-e2e-first-view-challenge-'));
    const window = {
      EVENT_START: new Date(Date.now() - DAY).toISOString(),
      EVENT_END: new Date(Date.now() + 7 * DAY).toISOString(),
    };
    const env = { DATA_DIR: dataDir, SESSION_SECRET: SECRET, LOG_LEVEL: 'silent', ...window };
    const { app, ctx } = await buildApp(loadConfig(env), { logger: false });
    const event = await seedEvent(ctx, {
      users: 20,
      teams: 0,
      challenges: 2,
      solves: 10,
      files: 0,
      sessions: 2,
    });
    hinted = (
      await createChallenge(ctx, {
        name: 'Hydrated box',
        description:
          '<p>Read the <strong>source</strong> &amp; <a href="https://example.org">the docs</a>.</p>',
        category: 'Web Exploitation',
        difficulty: 'Easy',
        written_by: 'club',
        flag: 'flag{hydrated}',
        files: [],
        hints: [{ title: 'Nudge', content: 'Look at <em>the source</em>', cost: 0 }],
      })
    ).id;
    contained = (
      await createChallenge(ctx, {
        name: 'Contained box',
        description: '<p>Connect to your instance.</p>',
        category: 'Web Exploitation',
        difficulty: 'Easy',
        written_by: 'club',
        flag: 'flag{contained}',
        files: [],
        instance: {
          image: 'ctf-flag-service:test',
          ports: [{ port: 1337, protocol: 'tcp' }],
          memoryMb: 64,
          cpus: 0.25,
          pids: 32,
          lifetimeMinutes: 30,
          env: {},
        },
      })
    ).id;
    await app.close();
    token = event.sessions[0]!.token;
    server = await startServer({ DATA_DIR: dataDir, SESSION_SECRET: SECRET, ...window });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const playerContext = async () => {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    await context.addCookies([{ name: 'ctf_session', value: token, url: server.url }]);
    return context;
  };

  it('sends the challenge in its HTML with the answers it was drawn from, to the player only', async () => {
    const res = await fetch(`${server.url}/challenge?id=${hinted}`, {
      headers: { cookie: `ctf_session=${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    const html = await res.text();
    expect(html).toContain('<h1 id="challenge-name">Hydrated box</h1>');
    expect(html).toContain('Read the <strong>source</strong> &amp; <a href="https://example.org"');
    // (React marks where one text node ends and the next begins.)
    expect(html).toMatch(/Unlock hint (<!-- -->)?1/);
    expect(html).toContain('<script type="application/json" id="first-view-data">');
    expect(html).not.toContain('flag{hydrated}');
    // A visitor, and an id the API refuses, get the browser-drawn page.
    expect(await (await fetch(`${server.url}/challenge?id=${hinted}`)).text()).not.toContain(
      'first-view-data',
    );
    const unknown = await fetch(`${server.url}/challenge?id=99999`, {
      headers: { cookie: `ctf_session=${token}` },
    });
    expect(await unknown.text()).not.toContain('first-view-data');
  });

  it('hydrates on a slow phone without a mismatch or a request for what it carried; a hint, a flag and the instance panel then work', async () => {
    const { context, page, complaints, asked } = await slowPhone(browser, server.url, token);
    page.on('dialog', (d) => void d.accept());

    await page.goto(`${server.url}/challenge?id=${hinted}`);
    await hydrated(page, '#flag-input');
    expect(complaints).toEqual([]);
    expect(asked).not.toContain('/api/ctf/challenge');
    expect(asked).not.toContain('/api/user/info');
    expect(asked).not.toContain('/api/authenticated');
    // The hint unlocks, a wrong flag is answered, the right one marks the challenge solved.
    await page.getByRole('button', { name: 'Unlock hint 1' }).click();
    await expect.poll(() => page.getByTestId('hint-content').innerText()).toContain('Look at the source');
    await page.locator('#flag-input').fill('flag{wrong}');
    await page.getByRole('button', { name: 'Submit Flag' }).click();
    await expect.poll(() => page.getByTestId('flag-message').innerText()).not.toBe('');
    await page.locator('#flag-input').fill('flag{hydrated}');
    await page.getByRole('button', { name: 'Submit Flag' }).click();
    await page.getByRole('heading', { name: 'Rating' }).waitFor();
    expect(complaints).toEqual([]);

    // The instance panel came with the page (none started yet) and answers its button once live.
    asked.length = 0;
    await page.goto(`${server.url}/challenge?id=${contained}`);
    await page.getByTestId('instance-start').waitFor();
    await hydrated(page, '[data-testid="instance-start"]');
    expect(asked).not.toContain('/api/ctf/instance');
    expect(asked).not.toContain('/api/ctf/challenge');
    await page.getByTestId('instance-start').click();
    await expect
      .poll(
        async () =>
          (await page.getByTestId('instance-error').count()) +
          (await page.getByTestId('instance-failed').count()) +
          (await page.getByTestId('instance-starting').count()),
      )
      .toBeGreaterThan(0);
    expect(complaints).toEqual([]);
    await context.close();
  });

  it('paints the challenge page as it stays: nothing moves when the stylesheet arrives', async () => {
    const context = await playerContext();
    for (const id of [hinted, contained])
      await expectStillAsTheStylesheetArrives(context, `${server.url}/challenge?id=${id}`);
    await context.close();
  });
});
