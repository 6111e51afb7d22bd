import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { localSignIn } from './support/session.js';

const run = browserAvailable();

/** Issue 15 in a real browser: announcements reach open pages through GET /api/events, inert. */
describe.runIf(run)('live announcements in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: BrowserContext;
  let player: BrowserContext;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    admin = await browser.newContext();
    player = await browser.newContext();
    await localSignIn(admin, server.url, 'announcer', true);
    await localSignIn(player, server.url, 'reader');
    await post('/api/admin/update_site_info', { activated: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function post(path: string, data: unknown) {
    const res = await admin.request.post(`${server.url}${path}`, { data, headers: { origin: server.url } });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()) as { _id?: string };
  }

  it("shows an admin's announcement as a toast on a player's open Compete page, without a reload", async () => {
    const page = await player.newPage();
    // The stream's answer (its headers) arriving means the page is subscribed.
    const streamOpen = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events');
    await page.goto(`${server.url}/compete`);
    expect((await streamOpen).status()).toBe(200);
    let navigations = 0;
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) navigations++;
    });

    await post('/api/admin/announcements/create', {
      title: 'Wave 2 is out',
      body: 'Five **new** challenges.',
    });

    const toast = page.getByTestId('live-toast-announcement');
    await expect.poll(() => toast.textContent()).toContain('Wave 2 is out');
    expect(navigations).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/compete');
    await page.close();
  });

  it('keeps Markdown with <script>, onerror= and javascript: links inert on /announcements', async () => {
    const body = [
      'Hello <script>window.__pwned = "script"</script>',
      '<img src="x" onerror="window.__pwned = \'onerror\'">',
      '[click me](javascript:window.__pwned="link") and <a href="javascript:window.__pwned=1">raw</a>',
    ].join('\n\n');
    await post('/api/admin/announcements/create', { title: 'Hostile', body, pinned: true });

    const page = await player.newPage();
    await page.goto(`${server.url}/announcements`);
    await expect.poll(() => page.getByText('click me').count()).toBeGreaterThan(0);
    const found = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: unknown }).__pwned ?? null,
      scripts: document.querySelectorAll('main script').length,
      handlers: document.querySelectorAll('main [onerror]').length,
      jsLinks: Array.from(document.querySelectorAll('main a')).filter((a) =>
        (a.getAttribute('href') ?? '').trim().toLowerCase().startsWith('javascript:'),
      ).length,
    }));
    expect(found).toEqual({ pwned: null, scripts: 0, handlers: 0, jsLinks: 0 });
    for (const link of await page.getByText('click me').all()) await link.click();
    expect(
      await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned ?? null),
    ).toBeNull();
    await page.close();
  });
});
