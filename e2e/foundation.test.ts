import type { Browser, ConsoleMessage } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOAuthProvider } from '../server/test/fake-oauth-provider.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { localSignIn, popupLogin } from './support/session.js';

const run = browserAvailable();

describe.runIf(run)('foundation in Chromium', () => {
  const fake = new FakeOAuthProvider();
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    await fake.start();
    server = await startServer({ ...fake.env(), ADMINS: 'github:boss' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await fake.stop();
  });

  it('logs in through the GitHub popup (500x600), lands on /compete, and logs out to /login', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m: ConsoleMessage) => m.type() === 'error' && errors.push(m.text()));
    page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.getByRole('link', { name: 'Login' }).count()).toBe(1);
    fake.nextProfile = { id: '501', login: 'player-one', email: 'p1@example.org' };
    await page.goto(`${server.url}/login`);
    const popupPromise = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Login with GitHub' }).click();
    const popup = await popupPromise;
    const size = await popup
      .evaluate(() => ({ w: window.outerWidth, h: window.outerHeight }))
      .catch(() => null);
    if (size) {
      expect(size.w).toBe(500);
      expect(size.h).toBe(600);
    }
    await page.waitForURL(`${server.url}/compete`);
    await expect.poll(() => page.getByRole('button', { name: 'Logout' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Profile' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Login' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${server.url}/login`);
    const check = await page.request.get(`${server.url}/api/authenticated`);
    expect(check.status()).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the OAUTH_ERROR message in the login message area', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    fake.denyWith = 'access_denied';
    try {
      await page.goto(`${server.url}/login`);
      await page.getByRole('button', { name: 'Login with Discord' }).click();
      await expect
        .poll(() => page.getByTestId('login-message').textContent())
        .toContain('Login was cancelled.');
      expect(new URL(page.url()).pathname).toBe('/login');
    } finally {
      fake.denyWith = null;
      await context.close();
    }
  });

  it('ignores login messages from another origin', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const notes: string[] = [];
    page.on('console', (m) => notes.push(m.text()));
    // The popup is held at our own login route, so no real login can finish during the test and
    // move the page on its own; the popup opening shows that the login page's listener is attached.
    await context.route(/\/api\/auth\/github/, (route) =>
      route.fulfill({ status: 200, contentType: 'text/plain', body: 'held by the test' }),
    );
    await page.goto(`${server.url}/login`);
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Login with GitHub' }).click();
    await popup;
    // A message that claims success but comes from a foreign origin must change nothing.
    await page.evaluate(() => {
      window.dispatchEvent(
        new MessageEvent('message', { data: { type: 'OAUTH_SUCCESS' }, origin: 'https://evil.example' }),
      );
    });
    await expect.poll(() => notes.some((n) => n.includes('Ignored a login message'))).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect((await page.request.get(`${server.url}/api/authenticated`)).status()).toBe(401);
    await context.close();
  });

  it('shows Admin in the navbar to an admin only, and guards the admin panel', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await popupLogin(page, server.url, fake, { id: '900', login: 'boss' });
    await expect.poll(() => page.getByRole('link', { name: 'Admin' }).count()).toBe(1);
    await page.getByRole('link', { name: 'Admin' }).click();
    await page.waitForURL(`${server.url}/admin/panel`);
    await context.close();

    const other = await browser.newContext();
    const p2 = await other.newPage();
    await popupLogin(p2, server.url, fake, { id: '901', login: 'pleb' });
    await expect.poll(() => p2.getByRole('button', { name: 'Logout' }).count()).toBe(1);
    expect(await p2.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await p2.goto(`${server.url}/admin/panel`);
    await p2.waitForURL(`${server.url}/login`);
    await other.close();
  });

  it('redirects a visitor from user pages to /login', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    for (const path of ['/profile', '/compete', '/leaderboard', '/rate-challenge']) {
      await page.goto(`${server.url}${path}`);
      await page.waitForURL(`${server.url}/login`);
    }
    await context.close();
  });

  it('serves the help and Kali pages with their texts, and a not-found page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/challenge_help`);
    await expect.poll(() => page.getByTestId('nc-command').textContent()).toContain('2530');
    await page.getByRole('link', { name: 'Kali setup guide' }).click();
    await page.waitForURL(`${server.url}/kali-setup-guide`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('Kali Linux');
    const text = await page.textContent('main');
    for (const s of ['4 GB minimum', '8 GB recommended', '25 GB', '2+ CPU cores', '128 MB'])
      expect(text).toContain(s);
    const res = await page.goto(`${server.url}/no-such-page`);
    expect(res?.status()).toBe(404);
    await expect.poll(() => page.getByRole('heading', { name: 'Page not found' }).count()).toBe(1);
    await context.close();
  });

  it('alerts when copying the command fails', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/challenge_help`);
    await page.evaluate(() => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new Error('denied')) },
      });
    });
    let message = '';
    page.once('dialog', (d) => {
      message = d.message();
      void d.dismiss();
    });
    await page.getByRole('button', { name: 'Copy command' }).click();
    await expect.poll(() => message).toBe('Copy failed — select and copy manually.');
    await context.close();
  });
});

describe.runIf(run)('home page countdown with a fixed clock', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer({
      EVENT_START: '2025-10-14T21:00:00-04:00',
      EVENT_END: '2025-10-21T21:00:00-04:00',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const cases = [
    { at: '2025-10-13T21:00:00-04:00', text: 'Event Starts In', days: '01' },
    { at: '2025-10-16T21:00:00-04:00', text: 'Event Ends In', days: '05' },
    { at: '2025-10-22T10:00:00-04:00', text: 'Event has ended!', days: null },
  ];
  for (const c of cases) {
    it(`shows '${c.text}' at ${c.at}`, async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.clock.setFixedTime(new Date(c.at));
      await page.goto(`${server.url}/`);
      const countdown = page.getByTestId('countdown');
      await expect.poll(() => countdown.textContent()).toContain(c.text);
      if (c.days) expect(await countdown.textContent()).toContain(`${c.days}Days`);
      else expect(await countdown.textContent()).not.toContain('Days');
      // No prize text set: the page promises no prize.
      expect(await page.textContent('body')).not.toContain('prize');
      expect(await page.getByRole('link', { name: 'Register Here' }).getAttribute('href')).toBe('/profile');
      await context.close();
    });
  }

  it('ticks every second', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.clock.install({ time: new Date('2025-10-13T21:00:00-04:00') });
    await page.goto(`${server.url}/`);
    const countdown = page.getByTestId('countdown');
    await expect.poll(() => countdown.textContent()).toContain('Event Starts In');
    const seconds = async () => Number(/(\d+)Seconds/.exec((await countdown.textContent()) ?? '')?.[1]);
    await page.clock.pauseAt(new Date('2025-10-13T21:00:10-04:00'));
    const before = await seconds();
    await page.clock.runFor(1000);
    await expect.poll(seconds).toBe((before + 59) % 60);
    await context.close();
  });

  it('offers local sign-in on a loopback trial and the FAQ has five questions', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await expect.poll(() => page.locator('.accordion-item').count()).toBe(5);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Username').fill('trial-user');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/compete`);
    await expect.poll(() => page.getByRole('button', { name: 'Logout' }).count()).toBe(1);
    await localSignIn(context, server.url, 'second-user');
    await context.close();
  });
});
