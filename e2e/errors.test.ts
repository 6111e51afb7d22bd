import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { createSampleChallenges, populateEvent, type DemoEvent } from './support/demo-event.js';
import { hydrated } from './support/first-view.js';
import { HttpClient } from './support/http.js';
import { startServer, type RunningServer } from './support/server.js';
import { localSignIn } from './support/session.js';

const run = browserAvailable();

type Failure = 'network' | 'server';

/**
 * Errors a person can act on: when a page's request fails, the page says what could not be
 * loaded, why, and offers Try again (which works once the server answers); a page that crashes
 * shows the error page and the next page still works; an unknown address has a way home.
 */
describe.runIf(run)('failed requests and broken pages in Chromium', { timeout: 120_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let event: DemoEvent;
  const contexts = new Map<string, BrowserContext>();

  async function pageFor(user: string | null): Promise<Page> {
    const key = user ?? '(visitor)';
    let context = contexts.get(key);
    if (!context) {
      context = await browser.newContext({ reducedMotion: 'reduce' });
      if (user) await localSignIn(context, server.url, user, user === 'admin');
      contexts.set(key, context);
    }
    return context.newPage();
  }

  /** Makes every call to `api` fail (no answer, or a 500) until the returned function is called. */
  async function breakApi(page: Page, api: string, how: Failure): Promise<() => Promise<void>> {
    const pattern = `**${api}`;
    const handler = (route: Route) =>
      how === 'network'
        ? route.abort('failed')
        : route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: '{"message":"Internal Server Error"}',
          });
    await page.route(pattern, handler);
    return () => page.unroute(pattern, handler);
  }

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const admin = await new HttpClient(server.url).signIn(server.url, 'admin', true);
    await createSampleChallenges(admin, server.url);
    event = await populateEvent(server);
  });
  afterAll(async () => {
    for (const c of contexts.values()) await c.close();
    await browser?.close();
    await server?.stop();
  });

  const cases = (): {
    user: string | null;
    path: string;
    api: string;
    how: Failure;
    what: string;
    then: (page: Page) => Promise<unknown>;
    before?: (page: Page) => Promise<void>;
    /**
     * A page the server renders carries the answers it was drawn from, so its first load asks
     * for none of them: the browser asks (and can fail) when it draws the page itself, reached
     * from another page through the navbar's link.
     */
    from?: { path: string; link: string };
  }[] => [
    {
      user: null,
      path: '/',
      from: { path: '/kali-setup-guide', link: 'Home' },
      api: '/api/info/site',
      how: 'network',
      what: 'The event dates could not be loaded.',
      then: (p) => p.getByTestId('countdown').waitFor(),
    },
    {
      user: null,
      path: '/challenge_help',
      api: '/api/info/site',
      how: 'server',
      what: 'The challenge host could not be loaded.',
      then: (p) => p.getByText(/^nc \S+ 2530$/).waitFor(),
    },
    {
      user: event.users.solo,
      path: '/compete',
      from: { path: '/rate-challenge', link: 'Compete' },
      api: '/api/ctf/challenges',
      how: 'server',
      what: 'The challenges could not be loaded.',
      then: (p) => p.getByTestId('challenge-card').first().waitFor(),
    },
    {
      user: event.users.solo,
      path: `/challenge?id=${event.challenges[1]!._id}`,
      api: '/api/ctf/challenge',
      how: 'network',
      what: 'This challenge could not be loaded.',
      then: (p) => p.getByRole('heading', { level: 1, name: event.challenges[1]!.name }).waitFor(),
    },
    {
      user: event.users.solo,
      path: '/leaderboard',
      from: { path: '/rate-challenge', link: 'Leaderboard' },
      // The page asks for the board page by page (?limit=&offset=).
      api: '/api/info/leaderboard?**',
      how: 'server',
      what: 'The leaderboard could not be loaded.',
      then: (p) => p.getByTestId('leaderboard-entry').first().waitFor(),
    },
    {
      user: event.users.solo,
      path: '/profile',
      api: '/api/user/info',
      how: 'server',
      what: 'Your profile could not be loaded.',
      then: (p) => p.getByRole('heading', { level: 1, name: event.users.solo }).waitFor(),
    },
    {
      user: event.users.solo,
      path: '/profile?mode=1',
      api: '/api/team/list',
      how: 'network',
      what: 'The list of teams could not be loaded.',
      then: (p) => p.getByLabel('Team to join').waitFor(),
    },
    {
      user: event.users.member,
      path: '/profile?mode=1',
      api: '/api/team/info',
      how: 'server',
      what: 'Your team could not be loaded.',
      then: (p) => p.getByRole('heading', { name: 'Team: Packet Pirates' }).waitFor(),
    },
    {
      user: event.users.member,
      path: '/profile',
      api: '/api/info/completions',
      how: 'server',
      what: "Your team's completions could not be loaded.",
      before: (p) => p.locator('label[for="stats-team"]').click(),
      then: (p) => p.locator('svg.team-pie-chart').waitFor(),
    },
    {
      user: event.users.member,
      path: '/rate-challenge',
      api: '/api/user/info',
      how: 'network',
      what: 'Your solved challenges could not be loaded.',
      then: (p) =>
        p
          .getByRole('button', { name: /^Rate / })
          .first()
          .waitFor(),
    },
    {
      user: 'admin',
      path: '/admin/panel',
      api: '/api/admin/get_users',
      how: 'server',
      what: 'The users could not be loaded.',
      then: (p) => p.getByTestId('user-count').waitFor(),
    },
    {
      user: 'admin',
      path: '/admin/panel',
      api: '/api/admin/get_site_info',
      how: 'network',
      what: 'The site status could not be loaded.',
      then: (p) => p.getByRole('button', { name: 'Site Active' }).waitFor(),
    },
  ];

  it('says what failed and why, offers Try again, and recovers when the server answers again', async () => {
    for (const c of cases()) {
      const page = await pageFor(c.user);
      const heal = await breakApi(page, c.api, c.how);
      await page.goto(`${server.url}${c.from?.path ?? c.path}`);
      if (c.from) {
        // The navbar's link (a page may name another page in its text too), once React holds it:
        // the page's shell carries the same links, and one clicked before that loads the next
        // page from the server, drawn there with what it carries (no request to fail).
        await hydrated(page, '#main-nav');
        await page.locator('#main-nav').getByRole('link', { name: c.from.link, exact: true }).click();
        await page.waitForURL((url) => url.pathname === c.path);
      }
      if (c.before) await c.before(page);
      const alert = page.getByTestId('query-error').filter({ hasText: c.what });
      await alert.waitFor();
      const text = await alert.innerText();
      expect(text, c.path).toContain(
        c.how === 'network'
          ? 'The server could not be reached. Check your connection, then try again.'
          : 'The server had a problem (500). Try again in a moment.',
      );
      expect(await alert.getAttribute('role')).toBe('alert');
      await heal();
      await alert.getByRole('button', { name: 'Try again' }).click();
      await c.then(page);
      expect(await alert.count(), `${c.path}: the error stays after a successful retry`).toBe(0);
      await page.close();
    }
  });

  it('shows the error page when a page cannot load, and the next page works', async () => {
    const page = await pageFor(event.users.solo);
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: 'Register Here' }).waitFor();
    // The leaderboard's code cannot be fetched (say, a deploy replaced it): its page breaks.
    await page.route(/\/assets\/leaderboard-[^/]+\.js$/, (route) => route.abort('failed'));
    await page.getByRole('link', { name: 'Leaderboard' }).click();
    await page.getByRole('heading', { name: 'Something went wrong on this page' }).waitFor();
    expect(await page.getByRole('link', { name: 'Go home' }).getAttribute('href')).toBe('/');
    expect(await page.getByRole('button', { name: 'Reload' }).count()).toBe(1);
    // The navbar still works, and the next page is not held hostage by the broken one.
    await page.getByRole('link', { name: 'Compete' }).click();
    await page.getByTestId('challenge-card').first().waitFor();
    expect(await page.getByText('Something went wrong on this page').count()).toBe(0);
    await page.close();
  });

  it('answers an unknown address with a not-found page and a way home', async () => {
    const page = await pageFor(null);
    const res = await page.goto(`${server.url}/no/such/page`);
    // The server answers 404 with the app, which shows the not-found page.
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('heading', { level: 1, name: 'Capture The Flag' }).waitFor();
    await page.close();
  });
});
