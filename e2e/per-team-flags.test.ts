import { MESSAGES } from '@ctf/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { pressAndAnswer, useBrowserSuite } from './support/suite.js';

const run = browserAvailable();
const TOKEN = 'e2e-admin-api-token-0123456789abcdef0123';

/**
 * Issue 18's per-team flags in a real browser: an author makes a challenge with per-team flags
 * shown on its page in the admin form; the player sees its own flag on the challenge page and
 * solves with it; the admin reads that competitor's flag with Show flag, and an author's service
 * gets the same from the token endpoint.
 */
describe.runIf(run)('per-team flags in Chromium', () => {
  const suite = useBrowserSuite({
    EVENT_START: '2020-01-01T00:00:00Z',
    EVENT_END: '2020-01-08T00:00:00Z',
    ADMIN_API_TOKEN: TOKEN,
  });
  let server: RunningServer;
  let adminContext: BrowserContext;
  let playerContext: BrowserContext;
  let admin: Page;

  beforeAll(async () => {
    server = suite.server;
    adminContext = await suite.context('author', { admin: true });
    playerContext = await suite.context('solver');
    admin = await adminContext.newPage();
  });

  it('creates it, shows the player its own flag, accepts it, and shows the admin the same', async () => {
    await admin.goto(`${server.url}/admin/panel`);
    await admin.getByRole('tab', { name: 'Create Challenge', exact: true }).click();
    const form = admin.getByRole('form', { name: 'Create Challenge' });
    await form.getByLabel('Name').fill('Own Flag');
    await form.getByLabel('Written by').fill('club');
    await form.getByLabel('Category').selectOption('Cryptography');
    await form.getByLabel('Difficulty').selectOption('Easy');
    await form.getByLabel('Flag', { exact: true }).fill('flag{own}');
    await form.getByLabel(/^Per-team flags/).check();
    await form.getByLabel(/Show each competitor its own flag/).check();
    await pressAndAnswer(
      form.getByRole('button', { name: 'Create Challenge' }),
      '/api/admin/ctf/create_challenge',
      admin,
    );
    await expect.poll(() => admin.getByTestId('admin-message').textContent()).toContain('created');
    const list = (await (
      await adminContext.request.get(`${server.url}/api/admin/ctf/fetch_challenges`)
    ).json()) as { _id: string; name: string; per_team: boolean }[];
    const id = list.find((c) => c.name === 'Own Flag')!._id;
    const activate = await adminContext.request.post(`${server.url}/api/admin/update_site_info`, {
      data: { activated: true },
      headers: { origin: server.url },
    });
    expect(activate.status()).toBe(200);

    const page = await playerContext.newPage();
    await page.goto(`${server.url}/challenge?id=${encodeURIComponent(id)}`);
    const own = page.getByTestId('team-flag');
    await expect.poll(() => own.textContent()).toMatch(/^flag\{own_[0-9a-f]{16}\}$/);
    const flag = (await own.textContent())!;
    await page.getByRole('textbox', { name: 'Flag' }).fill('flag{own}');
    await pressAndAnswer(page.getByRole('button', { name: 'Submit Flag' }), '/api/ctf/submit-flag', page);
    await expect.poll(() => page.getByTestId('flag-message').textContent()).toContain(MESSAGES.incorrectFlag);
    await page.getByRole('textbox', { name: 'Flag' }).fill(flag);
    await pressAndAnswer(page.getByRole('button', { name: 'Submit Flag' }), '/api/ctf/submit-flag', page);
    await expect.poll(() => page.getByTestId('flag-message').textContent()).toContain(MESSAGES.correctFlag);

    await admin.getByRole('tab', { name: 'View Challenges', exact: true }).click();
    await admin.getByRole('button', { name: "Show a competitor's flag of Own Flag" }).click();
    const panel = admin.getByRole('region', { name: 'Per-team flag of Own Flag' });
    await panel.getByLabel('Team or username').fill('solver');
    await pressAndAnswer(
      panel.getByRole('button', { name: 'Show flag' }),
      '/api/admin/ctf/reveal_team_flag',
      admin,
    );
    await expect.poll(() => panel.getByTestId('team-flag').textContent()).toBe(`Flag of solver: ${flag}`);

    const served = await fetch(`${server.url}/api/admin/ctf/team-flag?challenge=${id}&team=solver`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(await served.json()).toEqual({ challenge: id, team: 'solver', flag });
    const refused = await fetch(`${server.url}/api/admin/ctf/team-flag?challenge=${id}&team=solver`);
    expect(refused.status).toBe(401);
  });
});
