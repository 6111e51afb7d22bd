import { MESSAGES } from '@ctf/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAdminTab } from './support/admin-panel.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { localSignIn } from './support/session.js';
import { makeZip } from '../server/src/lib/zip.js';

/** A real one-entry ZIP archive (stored, not compressed). */
function zipWith(entryName: string, content: string): Buffer {
  return makeZip([{ name: entryName, content }]);
}

const run = browserAvailable();

describe.runIf(run)('admin panel in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let adminContext: BrowserContext;
  let playerContext: BrowserContext;
  let page: Page;
  const dialogs: string[] = [];
  const zip = zipWith('flag.txt', 'the flag is in the challenge text');

  beforeAll(async () => {
    // The event window is in the past, so Create Challenge is open.
    server = await startServer({ EVENT_START: '2020-01-01T00:00:00Z', EVENT_END: '2020-01-08T00:00:00Z' });
    browser = await launchBrowser();
    adminContext = await browser.newContext();
    playerContext = await browser.newContext();
    await localSignIn(adminContext, server.url, 'admin', true);
    await localSignIn(playerContext, server.url, 'player');
    page = await adminContext.newPage();
    // Registered before any click: every confirm is accepted and every alert recorded.
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.accept();
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const api = (path: string) => playerContext.request.get(`${server.url}${path}`);
  const message = () => page.getByTestId('admin-message').textContent();
  const tab = (name: string) => openAdminTab(page, name);

  it('runs an event from the panel: upload, create, open, solve, disable, solvers, remove, close', async () => {
    await page.goto(`${server.url}/admin/panel`);
    await expect.poll(() => page.getByRole('button', { name: 'Site Inactive' }).count()).toBe(1);

    // Upload a real ZIP.
    await tab('Upload');
    await page
      .getByLabel('ZIP files')
      .setInputFiles([{ name: 'task.zip', mimeType: 'application/zip', buffer: zip }]);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('upload-summary').textContent())
      .toContain('Uploaded 1 of 1 files successfully.');
    await expect.poll(() => page.getByRole('button', { name: 'Delete file task.zip' }).count()).toBe(1);

    // Create a challenge with the file attached.
    await tab('Create Challenge');
    const form = page.getByRole('form', { name: 'Create Challenge' });
    await form.getByLabel('Name').fill('Zip Secrets');
    await form.getByLabel('Written by').fill('club');
    await form.getByLabel('Category').selectOption('Forensics');
    await form.getByLabel('Difficulty').selectOption('Medium');
    await expect.poll(() => form.getByLabel('Points').inputValue()).toBe('200');
    await form.getByLabel('Flag', { exact: true }).fill('flag{zipped}');
    await form.getByLabel('Description').fill('<p>Download the archive.</p>');
    // The first task.zip is the challenge's own Files list; the second, the Solution's files.
    await form.getByLabel('task.zip').first().check();
    await form.getByRole('button', { name: 'Create Challenge' }).click();
    await expect.poll(message).toContain("Challenge 'Zip Secrets' created successfully.");

    // Open the site.
    await page.getByRole('button', { name: 'Site Inactive' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Site Active' }).count()).toBe(1);

    // The participant sees the challenge, downloads its file and solves it.
    const list = (await (await api('/api/ctf/challenges')).json()) as {
      _id: string;
      name: string;
      hlinks: string[];
      is_active: boolean;
    }[];
    const challenge = list.find((c) => c.name === 'Zip Secrets')!;
    expect(challenge).toMatchObject({ hlinks: ['task.zip'], is_active: true });
    const download = await api('/api/ctf/download/task.zip');
    expect(download.status()).toBe(200);
    expect(download.headers()['content-disposition']).toBe('attachment; filename="task.zip"');
    expect(Buffer.from(await download.body()).equals(zip)).toBe(true);
    const solve = await playerContext.request.post(`${server.url}/api/ctf/submit-flag`, {
      data: { flag: 'flag{zipped}', challenge_id: challenge._id },
      headers: { origin: server.url },
    });
    expect(await solve.json()).toEqual({ message: MESSAGES.correctFlag });

    // Disable it: the participant's list shows it inactive.
    await tab('View Challenges');
    await page.getByRole('button', { name: 'Disable Zip Secrets' }).click();
    await expect.poll(message).toContain('Challenge disabled.');
    await expect
      .poll(
        async () =>
          ((await (await api('/api/ctf/challenges')).json()) as { name: string; is_active: boolean }[]).find(
            (c) => c.name === 'Zip Secrets',
          )?.is_active,
      )
      .toBe(false);
    await expect.poll(() => page.getByRole('button', { name: 'Enable Zip Secrets' }).count()).toBe(1);

    // The solver shows in the Solvers tab.
    await tab('Solvers');
    const entry = page.getByTestId('solvers-entry').filter({ hasText: 'Zip Secrets' });
    await expect.poll(() => entry.textContent()).toContain('player');

    // Deleting the user takes their points off the leaderboard.
    const board = async () =>
      (await (await api('/api/info/leaderboard')).json()) as { name: string; points: number }[];
    expect(await board()).toContainEqual({ name: 'player', points: 200 });
    await tab('Users');
    await expect.poll(() => page.getByTestId('user-count').textContent()).toContain('Users: 1');
    await page.getByRole('button', { name: 'Delete user player' }).click();
    await expect.poll(message).toContain("User 'player' was removed.");
    expect(dialogs).toContain('Are you sure you want to delete this user?');
    await expect.poll(() => page.getByTestId('user-count').textContent()).toContain('Users: 0');
    expect((await board()).some((e) => e.name === 'player')).toBe(false);
    expect((await api('/api/authenticated')).status()).toBe(401);

    // Closing the site: the challenge list answers the message.
    await page.getByRole('button', { name: 'Site Active' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Site Inactive' }).count()).toBe(1);
    const closed = await api('/api/ctf/challenges');
    expect(await closed.json()).toMatchObject({ message: MESSAGES.siteInactive });

    // Choosing a non-ZIP file among two is refused on the spot, naming it.
    await tab('Upload');
    await page.getByLabel('ZIP files').setInputFiles([
      { name: 'second.zip', mimeType: 'application/zip', buffer: zipWith('b.txt', 'b') },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an archive') },
    ]);
    await expect.poll(() => dialogs.at(-1)).toBe('Only ZIP files are allowed. Invalid files: notes.txt');
    expect(await page.getByLabel('ZIP files').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect.poll(() => dialogs.at(-1)).toBe('Please select at least one ZIP file.');
  });

  it('reports a renamed text file per file, in orange, when uploaded with a real ZIP', async () => {
    await tab('Upload');
    await page.getByLabel('ZIP files').setInputFiles([
      { name: 'third.zip', mimeType: 'application/zip', buffer: zipWith('c.txt', 'c') },
      { name: 'fake.zip', mimeType: 'application/zip', buffer: Buffer.from('plain text pretending') },
    ]);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const summary = page.getByTestId('upload-summary');
    await expect.poll(() => summary.textContent()).toContain('Uploaded 1 of 2 files successfully.');
    expect(await summary.textContent()).toContain('fake.zip');
    expect(await summary.getAttribute('class')).toContain('text-warning');
    await page.getByRole('button', { name: 'Delete file third.zip' }).click();
    await expect.poll(message).toContain("File 'third.zip' deleted.");
    expect(dialogs).toContain('Are you sure you want to delete this file?');
  });
});
