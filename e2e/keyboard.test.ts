import { MESSAGES } from '@ctf/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOAuthProvider } from '../server/test/fake-oauth-provider.js';
import { settle, tabTo, trackRequests, walkTabOrder } from './support/a11y.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { createSampleChallenges, populateEvent, type DemoEvent } from './support/demo-event.js';
import { HttpClient } from './support/http.js';
import { startServer, type RunningServer } from './support/server.js';
import { localSignIn } from './support/session.js';

const run = browserAvailable();

/**
 * Everything works without a mouse: every control is reached by Tab and shows a visible focus
 * ring, and the login popup, the flag and rating forms, the filters, the team actions and the
 * admin tabs are driven with Tab, Enter, Space and the arrow keys only.
 */
describe.runIf(run)('keyboard only in Chromium', { timeout: 120_000 }, () => {
  let server: RunningServer;
  let browser: Browser;
  let event: DemoEvent;
  const contexts: BrowserContext[] = [];

  async function pageFor(user: string | null, path: string, admin = false): Promise<Page> {
    const context = await browser.newContext({
      reducedMotion: 'reduce',
      viewport: { width: 1280, height: 800 },
    });
    contexts.push(context);
    if (user) await localSignIn(context, server.url, user, admin);
    const page = trackRequests(await context.newPage());
    await page.goto(`${server.url}${path}`);
    await settle(page);
    return page;
  }

  const focused = (page: Page) =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el ? (el.getAttribute('aria-label') ?? el.innerText ?? '').trim() : '';
    });

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const admin = await new HttpClient(server.url).signIn(server.url, 'admin', true);
    await createSampleChallenges(admin, server.url);
    event = await populateEvent(server);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await server?.stop();
  });

  it('reaches every control of every page with Tab, each with a visible focus ring', async () => {
    const id = event.challenges[1]!._id;
    const pages: [string | null, string, string[]?][] = [
      [null, '/'],
      [null, '/login'],
      [null, '/challenge_help'],
      [null, '/kali-setup-guide'],
      [null, '/no-such-page'],
      [event.users.solo, '/compete'],
      [event.users.solo, `/challenge?id=${id}`],
      [event.users.solo, '/leaderboard'],
      [event.users.solo, '/profile'],
      [event.users.solo, '/profile?mode=1'],
      [event.users.member, '/profile?mode=1'],
      [event.users.member, '/rate-challenge'],
      [event.users.member, `/challenge?id=${event.challenges[2]!._id}`],
      [event.users.leader, '/profile?mode=1'],
      [
        'admin',
        '/admin/panel',
        ['Teams', 'Admins', 'Solvers', 'View Challenges', 'Create Challenge', 'Upload'],
      ],
    ];
    const problems: string[] = [];
    for (const [user, path, tabs] of pages) {
      const page = await pageFor(user, path, user === 'admin');
      for (const tab of [null, ...(tabs ?? [])]) {
        if (tab) {
          await page.getByRole('tab', { name: tab }).click();
          await settle(page);
        }
        const where = `${user ?? 'visitor'} ${path}${tab ? ` [${tab}]` : ''}`;
        const { stops, unreached } = await walkTabOrder(page);
        if (stops.length === 0) problems.push(`${where}: no tab stops at all`);
        for (const s of stops.filter((x) => !x.visible))
          problems.push(`${where}: no visible focus on ${s.label}`);
        for (const u of unreached) problems.push(`${where}: Tab never reaches ${u}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('skips to the content, and opens and closes an FAQ answer with Enter and Space', async () => {
    const page = await pageFor(null, '/');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    const question = page.getByRole('button', { name: 'What is a CTF?' });
    await tabTo(page, question);
    await page.keyboard.press('Enter');
    await expect.poll(() => question.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Space');
    await expect.poll(() => question.getAttribute('aria-expanded')).toBe('false');
  });

  it('logs in through the popup and out again from the keyboard', async () => {
    const fake = new FakeOAuthProvider();
    await fake.start();
    // A provider is configured here, so this server has no local sign-in: the real popup flow.
    const oauthServer = await startServer(fake.env());
    try {
      const context = await browser.newContext({ reducedMotion: 'reduce' });
      contexts.push(context);
      const page = await context.newPage();
      fake.nextProfile = { id: '777', login: 'keys-only', email: 'keys@example.org' };
      await page.goto(`${oauthServer.url}/login`);
      await tabTo(page, page.getByRole('button', { name: 'Login with GitHub' }));
      const popup = page.waitForEvent('popup');
      await page.keyboard.press('Enter');
      await popup;
      await page.waitForURL(`${oauthServer.url}/compete`);
      const logout = page.getByRole('button', { name: 'Logout' });
      await logout.waitFor();
      await tabTo(page, logout);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${oauthServer.url}/login`);
    } finally {
      await oauthServer.stop();
      await fake.stop();
    }
  });

  it('filters the challenges and opens one without a mouse', async () => {
    const page = await pageFor(event.users.solo, '/compete');
    const cards = page.getByTestId('challenge-card');
    const all = await cards.count();
    await tabTo(page, page.getByLabel('Search'));
    await page.keyboard.type('caesar');
    await expect.poll(() => cards.count()).toBe(1);
    await tabTo(page, page.getByRole('button', { name: 'Clear Filters' }));
    await page.keyboard.press('Enter');
    await expect.poll(() => cards.count()).toBe(all);
    expect(await page.getByLabel('Search').inputValue()).toBe('');
    // erin solved challenge 0: 'My Uncompleted' (on by default) hides it; Space unticks the box.
    const uncompleted = page.getByLabel('My Uncompleted');
    await tabTo(page, uncompleted);
    await page.keyboard.press('Space');
    expect(await uncompleted.isChecked()).toBe(false);
    await expect.poll(() => cards.count()).toBe(all + 1);
    // A select changes with the arrow keys.
    const category = page.getByLabel('Category');
    await tabTo(page, category);
    await page.keyboard.press('ArrowDown');
    const chosen = await category.inputValue();
    expect(chosen).not.toBe('');
    await expect.poll(async () => (await cards.allInnerTexts()).every((t) => t.includes(chosen))).toBe(true);
    await tabTo(page, page.getByRole('button', { name: 'Clear Filters' }));
    await page.keyboard.press('Enter');
    // Enter on a card's link opens the challenge.
    const link = cards.first().getByRole('link');
    const name = await link.innerText();
    await tabTo(page, link);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/challenge\?id=/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(name);
    // The new page starts with the focus at its content, and says what it is in the title.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    expect(await page.title()).toBe('Challenge · Capture The Flag');
  });

  it('submits flags and a rating without a mouse', async () => {
    const challenge = event.challenges[4]!;
    const page = await pageFor('kim', `/challenge?id=${challenge._id}`);
    const flag = page.locator('#flag-input');
    await tabTo(page, flag);
    await page.keyboard.type('flag{wrong}');
    // Sent with the button: it keeps the focus while the answer comes (busy, yet focusable).
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Submit Flag');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('flag-message').textContent()).toBe(MESSAGES.incorrectFlag);
    expect(await focused(page)).toBe('Submit Flag');
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('flag-input');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(challenge.flag);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('flag-message').textContent()).toBe(MESSAGES.correctFlag);
    // The rating prompt: Tab into the radio group, arrows choose, Enter on the button sends.
    const first = page.getByLabel('1 Poor');
    await tabTo(page, first);
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await page.getByLabel('4 Very Good').isChecked()).toBe(true);
    await tabTo(page, page.getByRole('button', { name: 'Submit Rating' }));
    await page.keyboard.press('Enter');
    await page.getByTestId('rating-thanks').waitFor();
    // The form is gone: the focus moves to the thank-you panel that replaced it.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('rating-thanks');
  });

  it('creates, joins, accepts, removes, renames and leaves a team without a mouse', async () => {
    const leader = await pageFor('leo', '/profile?mode=1');
    await tabTo(leader, leader.getByLabel('Team name'));
    await leader.keyboard.type('Keyboard Crew');
    await leader.keyboard.press('Enter');
    await expect.poll(() => leader.getByTestId('team-message').textContent()).toContain(MESSAGES.teamCreated);
    await leader.getByRole('heading', { name: 'Team: Keyboard Crew' }).waitFor();

    const joiner = await pageFor('mia', '/profile?mode=1');
    const select = joiner.getByLabel('Team to join');
    await tabTo(joiner, select);
    for (let i = 0; i < 6 && !(await select.inputValue()).startsWith('Keyboard Crew'); i++) {
      await joiner.keyboard.press('ArrowDown');
    }
    expect(await select.inputValue()).toBe('Keyboard Crew');
    await joiner.keyboard.press('Tab');
    expect(await focused(joiner)).toBe('Request Join Team');
    await joiner.keyboard.press('Enter');
    await expect.poll(() => joiner.getByTestId('team-message').textContent()).toContain(MESSAGES.requestSent);

    // Confirmations are the browser's own dialogs; they are answered, not clicked through the page.
    leader.on('dialog', (d) => void d.accept());
    await leader.reload();
    await settle(leader);
    const accept = leader.getByRole('button', { name: 'Accept Request from mia' });
    await tabTo(leader, accept);
    await leader.keyboard.press('Enter');
    const remove = leader.getByRole('button', { name: 'Remove mia' });
    await remove.waitFor();
    await tabTo(leader, remove);
    await leader.keyboard.press('Space');
    await expect.poll(() => remove.count()).toBe(0);
    await tabTo(leader, leader.getByLabel('New team name'));
    await leader.keyboard.type('Keyboard Club');
    await leader.keyboard.press('Enter');
    await leader.getByRole('heading', { name: 'Team: Keyboard Club' }).waitFor();
    await tabTo(leader, leader.getByRole('button', { name: 'Leave Team' }));
    await leader.keyboard.press('Enter');
    await leader.getByRole('button', { name: 'Create Team' }).waitFor();
  });

  it('moves between the admin tabs with the arrow keys and acts with Enter and Space', async () => {
    const page = await pageFor('admin', '/admin/panel', true);
    const users = page.getByRole('tab', { name: 'Users' });
    await tabTo(page, users);
    // One set of tabs across the sections: from People's last tab on to Challenges' first.
    for (const next of ['Teams', 'Admins', 'Awards', 'View Challenges']) {
      await page.keyboard.press('ArrowRight');
      const tab = page.getByRole('tab', { name: next });
      await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
      expect(await focused(page)).toBe(next);
    }
    await page.keyboard.press('ArrowLeft');
    await expect
      .poll(() => page.getByRole('tab', { name: 'Awards' }).getAttribute('aria-selected'))
      .toBe('true');
    expect(await focused(page)).toBe('Awards');
    await page.keyboard.press('ArrowRight');
    await settle(page);
    // The first challenge: Disable, then Enable again, with Enter.
    const name = event.challenges[0]!.name;
    await tabTo(page, page.getByRole('button', { name: `Disable ${name}` }));
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('admin-message').textContent()).toMatch(/^Success: /);
    const enable = page.getByRole('button', { name: `Enable ${name}` });
    await enable.waitFor();
    // The same button, now Enable, still has the focus; it answers once the panel has refreshed.
    expect(await focused(page)).toBe(`Enable ${name}`);
    await expect.poll(() => enable.getAttribute('aria-disabled'), { timeout: 10_000 }).toBe('false');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: `Disable ${name}` }).waitFor();
    // The site switch (above the tabs: Tab wraps round the page to it) answers Space, in words.
    const toggle = page.getByRole('button', { name: 'Site Active' });
    await tabTo(page, toggle);
    await expect.poll(() => toggle.getAttribute('aria-disabled'), { timeout: 10_000 }).toBe('false');
    await page.keyboard.press('Space');
    const inactive = page.getByRole('button', { name: 'Site Inactive' });
    await inactive.waitFor();
    expect(await focused(page)).toBe('Site Inactive');
    await expect.poll(() => inactive.getAttribute('aria-disabled'), { timeout: 10_000 }).toBe('false');
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Site Active' }).waitFor();
  });
});
