import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle, trackRequests } from './support/a11y.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { createSampleChallenges, populateEvent, type DemoEvent } from './support/demo-event.js';
import { HttpClient } from './support/http.js';
import { startServer, type RunningServer } from './support/server.js';
import { localSignIn } from './support/session.js';

const run = browserAvailable();
const PHONE = { width: 375, height: 812 };

/**
 * On a 375x812 phone every page is usable without scrolling sideways: the navbar collapses, cards
 * stack, and wide tables scroll inside their own box.
 */
describe.runIf(run)('a 375px-wide phone in Chromium', { timeout: 120_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let event: DemoEvent;
  const contexts = new Map<string, BrowserContext>();

  async function phonePage(user: string | null, path: string): Promise<Page> {
    const key = user ?? '(visitor)';
    let context = contexts.get(key);
    if (!context) {
      context = await browser.newContext({
        viewport: PHONE,
        isMobile: true,
        hasTouch: true,
        reducedMotion: 'reduce',
      });
      if (user) await localSignIn(context, server.url, user, user === 'admin');
      contexts.set(key, context);
    }
    const page = trackRequests(await context.newPage());
    await page.goto(`${server.url}${path}`);
    await settle(page);
    return page;
  }

  /** The page's own width (what would scroll sideways) and the elements that stick out of it. */
  const overflow = (page: Page) =>
    page.evaluate((width) => {
      const scrollWidth = document.scrollingElement!.scrollWidth;
      const outside = Array.from(document.querySelectorAll<HTMLElement>('body *'))
        .filter((el) => {
          const r = el.getBoundingClientRect();
          if (r.width === 0 || r.right <= width + 0.5) return false;
          // Inside a box that scrolls by itself (a table's wrapper) is fine.
          for (let p = el.parentElement; p; p = p.parentElement) {
            const s = getComputedStyle(p);
            if (
              (s.overflowX === 'auto' || s.overflowX === 'scroll') &&
              p.getBoundingClientRect().right <= width + 0.5
            )
              return false;
          }
          return true;
        })
        .slice(0, 5)
        .map(
          (el) =>
            `${el.tagName.toLowerCase()}.${el.className} (right ${Math.round(el.getBoundingClientRect().right)})`,
        );
      return { scrollWidth, outside };
    }, PHONE.width);

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

  it('fits every page, in every state, into 375 pixels', async () => {
    const challenge = (i: number) => `/challenge?id=${event.challenges[i]!._id}`;
    const pages: [string | null, string, ((p: Page) => Promise<void>)?][] = [
      [null, '/'],
      [null, '/login'],
      [null, '/challenge_help'],
      [null, '/kali-setup-guide'],
      [null, '/no-such-page'],
      [event.users.solo, '/profile'],
      [event.users.solo, '/profile?mode=1'],
      [event.users.solo, '/compete'],
      [event.users.solo, challenge(0)],
      [event.users.solo, '/leaderboard'],
      [
        event.users.member,
        '/profile',
        async (p) => {
          await p.locator('label[for="stats-team"]').click();
          await p.locator('svg.team-pie-chart').waitFor();
        },
      ],
      [event.users.member, '/profile?mode=1'],
      [event.users.member, '/compete'],
      [event.users.member, challenge(2)],
      [event.users.member, '/rate-challenge'],
      [event.users.leader, '/profile?mode=1'],
      ...['Users', 'Teams', 'Admins', 'Solvers', 'View Challenges', 'Create Challenge', 'Upload'].map(
        (tab) =>
          [
            'admin',
            '/admin/panel',
            async (p: Page) => {
              await p.getByRole('tab', { name: tab }).click();
            },
          ] as [string, string, (p: Page) => Promise<void>],
      ),
    ];
    const problems: string[] = [];
    for (const [user, path, act] of pages) {
      const page = await phonePage(user, path);
      if (act) {
        await act(page);
        await settle(page);
      }
      const { scrollWidth, outside } = await overflow(page);
      if (scrollWidth > PHONE.width || outside.length > 0) {
        problems.push(`${user ?? 'visitor'} ${path}: scrollWidth ${scrollWidth}; ${outside.join(', ')}`);
      }
      await page.close();
    }
    expect(problems).toEqual([]);
  });

  it('collapses the navbar behind a toggle that opens it, by touch or keyboard', async () => {
    const page = await phonePage(event.users.member, '/compete');
    const toggle = page.getByRole('button', { name: 'Toggle navigation' });
    const leaderboard = page.getByRole('link', { name: 'Leaderboard' });
    expect(await toggle.isVisible()).toBe(true);
    expect(await leaderboard.isVisible()).toBe(false);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => leaderboard.isVisible()).toBe(true);
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect((await overflow(page)).scrollWidth).toBeLessThanOrEqual(PHONE.width);
    await leaderboard.tap();
    await page.waitForURL(`${server.url}/leaderboard`);
    // Choosing a link closes the menu again.
    await expect.poll(() => page.getByRole('link', { name: 'Compete' }).isVisible()).toBe(false);
    await page.close();
  });

  it('stacks the challenge cards and keeps the leaderboard and admin tables in their own boxes', async () => {
    const compete = await phonePage(event.users.solo, '/compete');
    const cards = await compete.getByTestId('challenge-card').evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { left: Math.round(r.left), right: Math.round(r.right) };
      }),
    );
    expect(cards.length).toBeGreaterThan(1);
    // One column: every card starts at the same left edge and fits the screen.
    expect(new Set(cards.map((c) => c.left)).size).toBe(1);
    for (const c of cards) expect(c.right).toBeLessThanOrEqual(PHONE.width);
    await compete.close();

    const board = await phonePage(event.users.solo, '/leaderboard');
    const box = await board.locator('.leaderboard-list').evaluate((e) => ({
      right: e.getBoundingClientRect().right,
      height: e.getBoundingClientRect().height,
    }));
    expect(box.right).toBeLessThanOrEqual(PHONE.width);
    expect(box.height).toBeLessThanOrEqual(400);
    await board.close();

    const admin = await phonePage('admin', '/admin/panel');
    await admin.getByRole('tab', { name: 'View Challenges' }).click();
    await settle(admin);
    const wrapper = await admin.locator('.tab-pane.active .table-responsive').evaluate((e) => ({
      right: e.getBoundingClientRect().right,
      scrolls: e.scrollWidth > e.clientWidth,
      overflowX: getComputedStyle(e).overflowX,
    }));
    expect(wrapper.right).toBeLessThanOrEqual(PHONE.width);
    expect(wrapper.overflowX).toBe('auto');
    expect(wrapper.scrolls).toBe(true);
    await admin.close();
  });
});
