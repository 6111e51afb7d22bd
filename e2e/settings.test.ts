import { MESSAGES } from '@ctf/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations, settle } from './support/a11y.js';
import { browserAvailable } from './support/browser.js';
import { HttpClient } from './support/http.js';
import type { RunningServer } from './support/server.js';
import { useBrowserSuite } from './support/suite.js';

const run = browserAvailable();

/**
 * Issue 19 in a real browser, on one server: settings edited in the admin panel show on the home
 * page; the dark theme passes axe; practice flags after the end leave the board as it was.
 */
describe.runIf(run)('event settings in Chromium', { timeout: 180_000 }, () => {
  const suite = useBrowserSuite();
  let server: RunningServer;
  beforeAll(() => {
    server = suite.server;
  });

  const context = (user: string | null, options: { admin?: boolean; dark?: boolean } = {}) =>
    suite.context(user, {
      admin: options.admin === true,
      // The axe checker's script needs the CSP bypass; the site's own scripts do not.
      bypassCSP: true,
      reducedMotion: 'reduce',
      colorScheme: options.dark ? 'dark' : 'light',
      viewport: { width: 1280, height: 800 },
    });

  it('settings edited in the Settings tab appear on the home page, for every visitor', async () => {
    const page = await (await context('organiser', { admin: true })).newPage();
    await page.goto(`${server.url}/admin/panel`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const name = page.getByLabel('Event name');
    await name.fill('Spring Break CTF');
    await page.getByLabel('Tagline').fill('Two days of puzzles for first-years.');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect.poll(() => page.getByTestId('admin-message').textContent()).toContain('Settings saved.');
    // The texts are their own section, with its own address and its own Save.
    await page.getByRole('link', { name: 'Texts' }).click();
    await page.waitForURL(/section=texts/);
    await page.getByLabel('About').fill('Run by the **security club**.');
    await page.getByLabel('FAQ').fill('### Is it free?\n\nYes, entirely.');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect
      .poll(async () => (await (await page.request.get(`${server.url}/api/info/site`)).json()).faq_html)
      .toContain('Is it free?');
    await page.close();

    const visitor = await (await context(null)).newPage();
    await visitor.goto(server.url);
    await visitor.getByRole('heading', { level: 1, name: 'Spring Break CTF' }).waitFor();
    expect(await visitor.getByText('Two days of puzzles for first-years.').count()).toBe(1);
    expect(await visitor.locator('#main strong', { hasText: 'security club' }).count()).toBe(1);
    await visitor.getByRole('button', { name: 'Is it free?' }).click();
    await visitor.getByText('Yes, entirely.').waitFor();
    expect(await visitor.title()).toBe('Spring Break CTF');
    expect(await visitor.getByRole('link', { name: 'Spring Break CTF' }).count()).toBe(1);
    await visitor.close();
  });

  it('the dark theme (system preference, then the toggle, remembered) passes axe on the main pages', async () => {
    const problems: string[] = [];
    const admin = await new HttpClient(server.url).signIn(server.url, 'organiser', true);
    await admin.post(server.url, '/api/admin/update_site_info', { activated: true });
    const dark = await context('night-owl', { dark: true });
    const page = await dark.newPage();
    for (const path of ['/', '/login', '/rules', '/compete', '/leaderboard', '/profile', '/challenge_help']) {
      await page.goto(`${server.url}${path}`);
      await settle(page);
      expect(await page.evaluate(() => document.documentElement.getAttribute('data-bs-theme'))).toBe('dark');
      for (const v of await seriousViolations(page)) problems.push(`${path}: ${v}`);
    }
    const adminPage = await (await context('organiser', { admin: true, dark: true })).newPage();
    await adminPage.goto(`${server.url}/admin/panel`);
    await adminPage.getByRole('tab', { name: 'Settings' }).click();
    await settle(adminPage);
    for (const v of await seriousViolations(adminPage)) problems.push(`/admin/panel Settings: ${v}`);
    expect(problems).toEqual([]);

    // A light system: the toggle turns the dark theme on, and the next page load keeps it.
    const light = await (await context(null)).newPage();
    await light.goto(server.url);
    // The first paint's navbar is static HTML: wait for the app to own the page before clicking.
    await settle(light);
    expect(await light.evaluate(() => document.documentElement.getAttribute('data-bs-theme'))).toBe('light');
    const toggle = light.getByRole('button', { name: 'Dark theme' });
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    await light.reload();
    expect(await light.evaluate(() => document.documentElement.getAttribute('data-bs-theme'))).toBe('dark');
  });

  it('practice flags after the end are recorded apart and leave the board as it was', async () => {
    const admin = await new HttpClient(server.url).signIn(server.url, 'organiser', true);
    const created = await admin.post(server.url, '/api/admin/ctf/create_challenge', {
      name: 'Afterglow',
      description: 'Still here after the end.',
      category: 'General',
      difficulty: 'Easy',
      written_by: 'club',
      flag: 'flag{afterglow}',
      files: [],
    });
    expect(created.status, created.text).toBe(200);
    await admin.post(server.url, '/api/admin/update_site_info', { activated: true });
    const list = await admin.get(server.url, '/api/ctf/challenges');
    const id = (list.body as { _id: string; name: string }[]).find((c) => c.name === 'Afterglow')!._id;
    // One scored solve while play is open (the default window is over; 'open' plays on).
    const early = await new HttpClient(server.url).signIn(server.url, 'early-bird');
    expect(
      (await early.post(server.url, '/api/ctf/submit-flag', { challenge_id: id, flag: 'flag{afterglow}' }))
        .body,
    ).toEqual({ message: MESSAGES.correctFlag });
    const before = (await admin.get(server.url, '/api/info/leaderboard')).text;

    const saved = await admin.post(server.url, '/api/admin/settings', {
      eventEnd: new Date(Date.now() - 60_000).toISOString(),
      eventStart: new Date(Date.now() - 3_600_000).toISOString(),
      afterEnd: 'practice',
    });
    expect(saved.status, saved.text).toBe(200);

    const page = await (await context('late-comer')).newPage();
    await page.goto(`${server.url}/challenge?id=${id}`);
    await page.locator('#flag-input').fill('flag{afterglow}');
    await page.getByRole('button', { name: 'Submit Flag' }).click();
    await expect
      .poll(() => page.getByTestId('flag-message').textContent())
      .toContain(MESSAGES.correctPracticeFlag);
    expect((await admin.get(server.url, '/api/info/leaderboard')).text).toBe(before);
    await page.goto(`${server.url}/profile`);
    await page.getByRole('heading', { name: 'Practice solves' }).waitFor();
    expect(await page.getByText('Afterglow').count()).toBeGreaterThan(0);
  });
});
