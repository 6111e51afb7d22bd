import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/a11y.js';
import { openAdminTab } from './support/admin-panel.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { localSignIn } from './support/session.js';
import { makeZip } from '../server/src/lib/zip.js';

const run = browserAvailable();

const YML = `name: Imported Star
author: club
category: Cryptography
value: 200
description: |
  Decrypt **the** note.
flags:
  - flag{imported}
hints:
  - Try ROT13.
files:
  - note.txt
tags: [demo]
`;

describe.runIf(run)('Import / Export tab in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    // The event window is in the past, so an import may create challenges.
    server = await startServer({ EVENT_START: '2020-01-01T00:00:00Z', EVENT_END: '2020-01-08T00:00:00Z' });
    browser = await launchBrowser();
    context = await browser.newContext({ acceptDownloads: true, bypassCSP: true, reducedMotion: 'reduce' });
    await localSignIn(context, server.url, 'admin', true);
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const tab = (name: string) => openAdminTab(page, name);

  it('checks a ZIP with a dry run, imports it, and the challenge appears in the admin list', async () => {
    const zip = makeZip([
      { name: 'imported-star/challenge.yml', content: YML },
      { name: 'imported-star/note.txt', content: 'synt{vzcbegrq}' },
    ]);
    await page.goto(`${server.url}/admin/panel`);
    await tab('Import / Export');
    await page
      .getByLabel('Challenge archive (ZIP)')
      .setInputFiles([{ name: 'challenges.zip', mimeType: 'application/zip', buffer: zip }]);

    await page.getByRole('button', { name: 'Dry run' }).click();
    const report = page.getByTestId('import-result');
    await expect.poll(() => report.textContent()).toContain('Would create: Imported Star');
    const warnings = page.getByRole('table', { name: 'Import warnings' });
    await expect.poll(() => warnings.textContent()).toContain("Unknown key 'tags' was ignored.");

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect.poll(() => report.textContent()).toContain('Created: Imported Star');

    await tab('View Challenges');
    await expect.poll(() => page.getByText('Imported Star', { exact: true }).count()).toBeGreaterThan(0);

    // Importing the same archive again is an update, and a broken one lists its errors by line.
    await tab('Import / Export');
    await page.getByLabel('Challenge archive (ZIP)').setInputFiles([
      {
        name: 'broken.zip',
        mimeType: 'application/zip',
        buffer: makeZip([{ name: 'x/challenge.yml', content: YML.replace('Cryptography', 'Astrology') }]),
      },
    ]);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const errors = page.getByRole('table', { name: 'Import errors' });
    await expect.poll(() => errors.textContent()).toContain("x/challenge.yml3Unknown category 'Astrology'");
    // The tab with its report passes axe-core (no serious or critical violation).
    expect(await seriousViolations(page)).toEqual([]);

    // The export link downloads a ZIP of the site's challenges.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export challenges (ZIP)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^challenges-\d{4}-\d{2}-\d{2}\.zip$/);
  });
});
