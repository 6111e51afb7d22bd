import { MESSAGES, UI_TEXT } from '@ctf/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeZip } from '../server/src/lib/zip.js';
import { seriousViolations, settle, trackRequests } from './support/a11y.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { HttpClient } from './support/http.js';
import { createSampleChallenges, populateEvent, type DemoEvent } from './support/demo-event.js';
import { startServer, type RunningServer } from './support/server.js';
import { localSignIn } from './support/session.js';

const run = browserAvailable();

const ADMIN_TABS = ['Users', 'Teams', 'Admins', 'Solvers', 'View Challenges', 'Create Challenge', 'Upload'];

/**
 * Every page of docs/product.md §2 in every state (visitor, participant without and with a team, leader,
 * admin; an empty event and a full one) has no serious or critical axe-core violation.
 */
describe.runIf(run)('accessibility in Chromium (axe-core)', { timeout: 180_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let event: DemoEvent;
  const contexts = new Map<string, BrowserContext>();
  const problems: string[] = [];

  /** One signed-in browser context per person (null: a visitor), reused across tests. */
  async function contextFor(user: string | null, admin = false): Promise<BrowserContext> {
    const key = user ?? '(visitor)';
    let context = contexts.get(key);
    if (!context) {
      // bypassCSP lets the checker's script in (the site's own policy allows no inline script);
      // reduced motion turns Bootstrap's fades off, so axe never measures a half-faded colour.
      context = await browser.newContext({
        bypassCSP: true,
        reducedMotion: 'reduce',
        viewport: { width: 1280, height: 800 },
      });
      if (user) await localSignIn(context, server.url, user, admin);
      contexts.set(key, context);
    }
    return context;
  }

  type Step = [label: string, act: (page: Page) => Promise<void>];

  /**
   * Opens a page and records its serious violations; then runs each step (a tab click, a form
   * sent...) on the same page and records the violations of each state it leads to.
   */
  async function audit(user: string | null, path: string, ...steps: Step[]) {
    const page = trackRequests(await (await contextFor(user, user === 'admin')).newPage());
    const record = async (label: string) => {
      for (const v of await seriousViolations(page))
        problems.push(`${user ?? 'visitor'} ${path} ${label}: ${v}`);
    };
    try {
      await page.goto(`${server.url}${path}`);
      await settle(page);
      await record('');
      for (const [label, act] of steps) {
        await act(page);
        await settle(page);
        await record(`(${label})`);
      }
    } finally {
      await page.close();
    }
  }

  const tab = (name: string) => async (page: Page) => {
    await page.getByRole('tab', { name }).click();
  };

  /** The stats widget's Team Stats toggle (a radio styled as a button). */
  const teamStats = async (page: Page) => {
    await page.locator('label[for="stats-team"]').click();
  };

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts.values()) await c.close();
    await browser?.close();
    await server?.stop();
  });

  const adminTabs: Step[] = ADMIN_TABS.slice(1).map((name) => [name, tab(name)]);

  it('an empty event: every page for a visitor, a participant and an admin', async () => {
    problems.length = 0;
    for (const path of ['/', '/login', '/challenge_help', '/kali-setup-guide', '/no-such-page']) {
      await audit(null, path);
    }
    // The site starts inactive: /compete says so.
    await audit('erin', '/profile', ['Team Stats', teamStats]);
    for (const path of [
      '/profile?mode=1',
      '/compete',
      '/rate-challenge',
      '/leaderboard',
      '/challenge',
      '/challenge?id=999',
    ]) {
      await audit('erin', path);
    }
    await audit('admin', '/admin/panel', ...adminTabs);
    // Open, with no challenges yet: 'No challenges found'.
    const admin = await new HttpClient(server.url).signIn(server.url, 'admin', true);
    await admin.post(server.url, '/api/admin/update_site_info', { activated: true });
    await audit('erin', '/compete', [
      'no challenges',
      async (page) => {
        await expect.poll(() => page.getByText(UI_TEXT.noChallenges).count()).toBe(1);
      },
    ]);
    expect(problems).toEqual([]);
  });

  it('a full event: participants without and with a team, a leader and an admin', async () => {
    problems.length = 0;
    const admin = await new HttpClient(server.url).signIn(server.url, 'admin', true);
    await createSampleChallenges(admin, server.url);
    event = await populateEvent(server);
    const id = (i: number) => event.challenges[i]!._id;
    const submitFlag = (flag: string, expected: string) => async (page: Page) => {
      await page.locator('#flag-input').fill(flag);
      await page.getByRole('button', { name: 'Submit Flag' }).click();
      await expect.poll(() => page.getByTestId('flag-message').textContent()).toContain(expected);
    };

    // erin: on no team, solved and rated challenge 0.
    const solo = event.users.solo;
    await audit(solo, '/profile', ['Team Stats', teamStats]);
    await audit(solo, '/profile?mode=1');
    await audit(solo, '/compete');
    await audit(solo, `/challenge?id=${id(0)}`);
    await audit(solo, `/challenge?id=${id(1)}`, [
      'wrong flag',
      submitFlag('flag{nope}', MESSAGES.incorrectFlag),
    ]);
    await audit(solo, '/rate-challenge');
    await audit(solo, '/leaderboard');

    // bob: a member of Packet Pirates; solved challenges 2 (with a file) and 0, rated neither.
    const member = event.users.member;
    await audit(member, '/profile', [
      'Team Stats chart',
      async (page) => {
        await teamStats(page);
        await page.locator('svg.team-pie-chart').waitFor();
      },
    ]);
    await audit(member, '/profile?mode=1');
    await audit(member, '/compete');
    await audit(member, `/challenge?id=${id(2)}`, [
      'rating without a choice',
      async (page) => {
        await page.getByRole('button', { name: 'Submit Rating' }).click();
        await expect
          .poll(() => page.getByTestId('rating-message').textContent())
          .toContain(UI_TEXT.selectRating);
      },
    ]);
    await audit(member, `/challenge?id=${id(3)}`, [
      'correct flag',
      submitFlag(event.challenges[3]!.flag, MESSAGES.correctFlag),
    ]);
    await audit(member, '/rate-challenge');

    // alice: leader, with members and dave's waiting join request.
    await audit(event.users.leader, '/profile?mode=1', [
      'refused rename message',
      async (page) => {
        await page.getByLabel('New team name').fill('Packet Pirates');
        await page.getByRole('button', { name: 'Update' }).click();
        await page.getByTestId('team-message').waitFor();
      },
    ]);
    await audit(event.users.leader, '/leaderboard', [
      'score graph drawn, its table open',
      async (page) => {
        await page.getByTestId('score-graph-chart').locator('canvas').waitFor();
        await page.getByText('Score graph as a table').click();
        await page.getByTestId('score-graph-table').waitFor();
      },
    ]);

    // The admin: every tab with data, messages, the edit form and a partly failed upload.
    await audit(
      'admin',
      '/admin/panel',
      ...adminTabs,
      [
        'success message',
        async (page) => {
          await page.getByRole('button', { name: 'Force Update' }).click();
          await page.getByTestId('admin-message').getByRole('alert').waitFor();
        },
      ],
      [
        'partly failed upload',
        async (page) => {
          await page.getByLabel('ZIP files').setInputFiles([
            {
              name: 'good.zip',
              mimeType: 'application/zip',
              buffer: makeZip([{ name: 'a.txt', content: 'a' }]),
            },
            { name: 'fake.zip', mimeType: 'application/zip', buffer: Buffer.from('not a zip at all') },
          ]);
          await page.getByRole('button', { name: 'Upload', exact: true }).click();
          await expect
            .poll(() => page.getByTestId('upload-summary').textContent())
            .toContain('Uploaded 1 of 2');
        },
      ],
      [
        'edit form',
        async (page) => {
          await page.getByRole('tab', { name: 'View Challenges' }).click();
          await page
            .getByRole('button', { name: /^Edit / })
            .first()
            .click();
        },
      ],
    );
    // The visitor's home page once the event is under way.
    await audit(null, '/');
    expect(problems).toEqual([]);
  });

  it('keeps the dimmed, disabled challenge card readable (4.5:1), though axe skips aria-disabled', async () => {
    const page = await (await contextFor(event.users.solo)).newPage();
    await page.goto(`${server.url}/compete`);
    const card = page.locator('.challenge-card.inactive');
    await card.waitFor();
    expect(await card.textContent()).toContain(MESSAGES.challengeInactive);
    await card.evaluate((el) => el.removeAttribute('aria-disabled'));
    expect(await seriousViolations(page, '.challenge-card.inactive')).toEqual([]);
    await page.close();
  });

  it('never uses colour as the only signal: badges, alerts and team icons carry words', async () => {
    const pages: [string | null, string, ((p: Page) => Promise<void>)?][] = [
      [event.users.member, '/compete'],
      [event.users.member, `/challenge?id=${event.challenges[0]!._id}`],
      [event.users.leader, '/leaderboard'],
      ['admin', '/admin/panel', tab('View Challenges')],
    ];
    for (const [user, path, act] of pages) {
      const page = trackRequests(await (await contextFor(user)).newPage());
      await page.goto(`${server.url}${path}`);
      await settle(page);
      if (act) {
        await act(page);
        await settle(page);
      }
      const wordless = await page.evaluate(() =>
        Array.from(
          document.querySelectorAll<HTMLElement>(
            '.badge, .alert, .team-completion, [data-testid="points-badge"]',
          ),
        )
          .filter((el) => !(el.getAttribute('aria-label') ?? el.innerText).trim().match(/[A-Za-z0-9]/))
          .map((el) => el.outerHTML.slice(0, 100)),
      );
      expect(wordless, `${path}`).toEqual([]);
      await page.close();
    }
    // Team icons say what they mean.
    const page = trackRequests(await (await contextFor(event.users.member)).newPage());
    await page.goto(`${server.url}/compete`);
    await settle(page);
    const icons = await page.locator('.team-completion').allInnerTexts();
    expect(icons.length).toBeGreaterThan(0);
    for (const t of icons) expect(t).toMatch(/^✔ Team completed$|^✖ Team not completed$/);
    // The top three carry their rank in words, not only gold, silver and the third colour.
    await page.goto(`${server.url}/leaderboard`);
    await settle(page);
    const first = page.getByTestId('leaderboard-entry').first();
    expect(await first.innerText()).toMatch(/#1[\s\S]*\d+ points/);
    await page.close();
  });

  it('keeps the countdown out of live regions: the ticking digits are hidden, the summary changes by the minute', async () => {
    for (const at of ['2025-10-13T21:00:10-04:00', '2025-10-16T08:30:10-04:00', '2025-11-01T00:00:00Z']) {
      // The fake clock belongs to the browser context: a fresh one for each moment.
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.clock.install({ time: new Date(at) });
      await page.goto(`${server.url}/`);
      // The server-rendered page holds the countdown's placeholder (aria-hidden, no numbers) until
      // the browser's clock is known: wait for the live countdown.
      const countdown = page.locator('[data-testid="countdown"]:not([aria-hidden="true"])');
      await countdown.waitFor();
      const live = await countdown.evaluate((root) => {
        const liveRoles = ['status', 'alert', 'log', 'timer', 'marquee', 'progressbar'];
        const isLive = (el: Element) =>
          el.hasAttribute('aria-live') || liveRoles.includes(el.getAttribute('role') ?? '');
        const found: string[] = [];
        for (let el: Element | null = root; el; el = el.parentElement)
          if (isLive(el)) found.push(el.outerHTML.slice(0, 80));
        for (const el of Array.from(root.querySelectorAll('*')))
          if (isLive(el)) found.push(el.outerHTML.slice(0, 80));
        return found;
      });
      expect(live, at).toEqual([]);
      // What a screen reader reads (everything not aria-hidden) versus the ticking digits.
      const spoken = () =>
        countdown.evaluate((root) => {
          const clone = root.cloneNode(true) as Element;
          clone.querySelectorAll('[aria-hidden="true"]').forEach((e) => e.remove());
          return clone.textContent;
        });
      const digits = () =>
        countdown.evaluate((root) => root.querySelector('[aria-hidden="true"]')?.textContent ?? null);
      await page.clock.pauseAt(new Date(Date.parse(at) + 5_000));
      const before = { spoken: await spoken(), digits: await digits() };
      await page.clock.runFor(1000);
      if (before.digits !== null) {
        // The digits tick every second; what is read aloud does not.
        await expect.poll(digits).not.toBe(before.digits);
        expect(await spoken(), at).toBe(before.spoken);
        expect(before.spoken).toMatch(/Event (Starts|Ends) In: \d+ days, \d+ hours, \d+ minutes/);
      } else {
        expect(before.spoken).toContain(UI_TEXT.eventEnded);
      }
      await context.close();
    }
  });
});
