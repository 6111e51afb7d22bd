import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/a11y.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { localSignIn } from './support/session.js';

const run = browserAvailable();

/**
 * Staff roles (issue 31) in a real browser: an admin makes one user a monitor and another an
 * author; each opens the admin panel and sees only its tabs (a monitor no button that changes
 * anything, no e-mail address), at 375 px too; an author's challenge list holds only the
 * challenges it owns; the admin marks a staff member as competing from the Users tab; a tab's
 * address survives a reload and the back button returns to the tab before.
 */
describe.runIf(run)('staff roles in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: BrowserContext;
  let monitor: BrowserContext;
  let author: BrowserContext;

  async function post(context: BrowserContext, path: string, data: unknown) {
    const res = await context.request.post(`${server.url}${path}`, { data, headers: { origin: server.url } });
    const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    if (!res.ok()) throw new Error(`${path} answered ${res.status()}: ${JSON.stringify(body)}`);
    return body;
  }

  const tabs = async (page: Page) => {
    await page.getByRole('tab').first().waitFor();
    return (await page.getByRole('tab').allInnerTexts()).map((t) => t.trim());
  };

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    admin = await browser.newContext({ bypassCSP: true });
    await localSignIn(admin, server.url, 'organiser', true);
    // A phone's width: the panel must stay usable there.
    monitor = await browser.newContext({ bypassCSP: true, viewport: { width: 375, height: 740 } });
    await localSignIn(monitor, server.url, 'watcher');
    author = await browser.newContext({ bypassCSP: true });
    await localSignIn(author, server.url, 'writer');
    const users = (await (await admin.request.get(`${server.url}/api/admin/get_users`)).json()) as {
      _id: string;
      username: string;
    }[];
    const id = (name: string) => users.find((u) => u.username === name)!._id;
    await post(admin, '/api/admin/set_role', { user_id: id('watcher'), role: 'monitor' });
    await post(admin, '/api/admin/set_role', { user_id: id('writer'), role: 'author' });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows a monitor the tabs about play without a button or an address, at 375 px', async () => {
    const page = await monitor.newPage();
    await page.goto(`${server.url}/admin/panel`);
    expect(await tabs(page)).toEqual([
      'Users',
      'Teams',
      'Admins',
      'Awards',
      'Solvers',
      'Announcements',
      'Instances',
      'Writeups',
      'Submissions',
      'Integrity',
      'Audit',
    ]);
    await page.getByRole('cell', { name: 'writer', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: /Delete|Make Admin|Hide|Ban|Site/ }).count()).toBe(0);
    expect(await page.getByRole('combobox', { name: /Staff role/ }).count()).toBe(0);
    expect(await page.getByRole('columnheader', { name: 'Email' }).count()).toBe(0);
    // Nothing wider than the phone: the sections wrap.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await seriousViolations(page)).toEqual([]);
    // By keyboard: focus a tab, then Enter opens it.
    await page.getByRole('tab', { name: 'Audit' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\?tab=audit$/);
    await expect
      .poll(() => page.getByRole('tab', { name: 'Audit' }).getAttribute('aria-selected'))
      .toBe('true');
    await page.close();
  });

  it('shows an author the challenge tabs and the submission log only', async () => {
    const page = await author.newPage();
    // The navbar offers the panel to every staff role.
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page.waitForURL(/\/admin\/panel$/);
    await page.goto(`${server.url}/admin/panel?tab=users`);
    expect(await tabs(page)).toEqual([
      'View Challenges',
      'Create Challenge',
      'Upload',
      'Import / Export',
      'Submissions',
    ]);
    expect(await page.getByRole('tab', { name: 'View Challenges' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    expect(await seriousViolations(page)).toEqual([]);
    // The challenges it creates are its own; it lists no other (an admin's are out of its reach).
    await post(admin, '/api/admin/ctf/create_challenge', {
      name: 'Organiser Box',
      category: 'General',
      difficulty: 'Easy',
      written_by: 'organiser',
      flag: 'flag{organiser_only}',
    });
    await post(author, '/api/admin/ctf/create_challenge', {
      name: 'Writer Box',
      category: 'General',
      difficulty: 'Easy',
      written_by: 'writer',
      flag: 'flag{writer_box}',
    });
    await page.reload();
    await page.getByRole('cell', { name: 'Writer Box', exact: true }).waitFor();
    expect(await page.getByRole('cell', { name: 'writer', exact: true }).count()).toBe(1);
    expect(await page.getByRole('cell', { name: 'Organiser Box', exact: true }).count()).toBe(0);
    expect(await page.content()).not.toContain('flag{organiser_only}');
    await page.close();
  });

  it('opens a tab from its address, keeps it on reload, and the back button returns', async () => {
    const page = await admin.newPage();
    await page.goto(`${server.url}/admin/panel?tab=audit`);
    await page.getByRole('tab', { name: 'Audit' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Audit' }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('tab', { name: 'Teams', exact: true }).click();
    await page.waitForURL(/\?tab=teams$/);
    await page.reload();
    await page.getByRole('tab', { name: 'Teams', exact: true }).waitFor();
    expect(await page.getByRole('tab', { name: 'Teams', exact: true }).getAttribute('aria-selected')).toBe(
      'true',
    );
    await page.goBack();
    await page.waitForURL(/\?tab=audit$/);
    await expect
      .poll(() => page.getByRole('tab', { name: 'Audit' }).getAttribute('aria-selected'))
      .toBe('true');
    // The admin sets roles from the Users tab.
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByRole('combobox', { name: 'Staff role: writer' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Staff role: writer' }).inputValue()).toBe('author');
    // Staff do not compete until the admin says so.
    const competing = page.getByRole('checkbox', { name: 'Competing: writer' });
    expect(await competing.isChecked()).toBe(false);
    await competing.click();
    await page.getByText("'writer' now competes: their solves count in public.").waitFor();
    await expect.poll(() => competing.isChecked()).toBe(true);
    await page.close();
  });
});
