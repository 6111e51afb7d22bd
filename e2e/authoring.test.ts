import { MESSAGES, pointsFor } from '@ctf/contract';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openAdminTab } from './support/admin-panel.js';
import { browserAvailable } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { pressAndAnswer as pressAndWait, useBrowserSuite } from './support/suite.js';

const run = browserAvailable();
const CREATE = '/api/admin/ctf/create_challenge';
const SCHEDULE = '/api/admin/ctf/schedule_release';

/**
 * Issue 17 in a real browser: an author writes a challenge with several flags, an attempt limit
 * and hints in the admin form, and a second one that requires it; a player meets the lock, pays
 * for a hint after a confirmation that names the cost, sees the attempts left go down, solves
 * with the regex flag and finds the second challenge open. A wave scheduled a moment ahead
 * appears on the player's page at its time, with no write.
 */
describe.runIf(run)('challenge authoring in Chromium', () => {
  // The event's dates are past (play stays open after the end): creating is allowed.
  const suite = useBrowserSuite({ EVENT_START: '2020-01-01T00:00:00Z', EVENT_END: '2020-01-08T00:00:00Z' });
  let server: RunningServer;
  let adminContext: BrowserContext;
  let playerContext: BrowserContext;
  let admin: Page;
  const dialogs: string[] = [];

  beforeAll(async () => {
    server = suite.server;
    adminContext = await suite.context('author', { admin: true });
    playerContext = await suite.context('solver');
    admin = await adminContext.newPage();
  });

  const message = () => admin.getByTestId('admin-message').textContent();
  const tab = (name: string) => openAdminTab(admin, name);
  /** Presses a button (of the panel, unless another page is given) and waits for the server's answer. */
  const pressAndAnswer = (button: ReturnType<Page['getByRole']>, path: string, on: Page = admin) =>
    pressAndWait(button, path, on);

  async function adminPost(path: string, data: unknown) {
    const res = await adminContext.request.post(`${server.url}${path}`, {
      data,
      headers: { origin: server.url },
    });
    expect(res.status(), await res.text()).toBe(200);
  }

  async function challengeId(name: string): Promise<string> {
    const res = await adminContext.request.get(`${server.url}/api/admin/ctf/fetch_challenges`);
    const list = (await res.json()) as { _id: string; name: string }[];
    return list.find((c) => c.name === name)!._id;
  }

  it('writes flags, an attempt limit, hints and a prerequisite in the admin form', async () => {
    await admin.goto(`${server.url}/admin/panel`);
    await tab('Create Challenge');
    const form = admin.getByRole('form', { name: 'Create Challenge' });
    await form.getByLabel('Name').fill('Regex Gate');
    await form.getByLabel('Written by').fill('club');
    await form.getByLabel('Category').selectOption('Cryptography');
    await form.getByLabel('Difficulty').selectOption('Easy');
    await form.getByLabel('Flag', { exact: true }).fill('flag{static_one}');
    await form.getByRole('button', { name: 'Add another accepted flag' }).click();
    await form.getByLabel('Comparison 2').selectOption('regex');
    await form.getByLabel('Flag 2', { exact: true }).fill('flag\\{r[0-9]+\\}');
    await form.getByLabel('Attempt limit per user').fill('3');
    await form.getByLabel('Description').fill('<p>Find the number.</p>');
    await form.getByRole('button', { name: 'Add hint' }).click();
    await form.getByLabel('Hint 1 title').fill('Look closer');
    await form.getByLabel('Hint 1 cost').fill('25');
    await form.getByLabel('Hint 1 content').fill('**Try** counting.');
    await pressAndAnswer(form.getByRole('button', { name: 'Create Challenge' }), CREATE);
    await expect.poll(message).toContain("Challenge 'Regex Gate' created successfully.");

    await tab('Create Challenge');
    await form.getByLabel('Name').fill('Second Step');
    await form.getByLabel('Written by').fill('club');
    await form.getByLabel('Category').selectOption('Web Exploitation');
    await form.getByLabel('Difficulty').selectOption('Medium');
    await form.getByLabel('Flag', { exact: true }).fill('flag{second}');
    await form.getByLabel('Description').fill('<p>After the gate.</p>');
    await form.getByLabel('Requires Regex Gate').check();
    await pressAndAnswer(form.getByRole('button', { name: 'Create Challenge' }), CREATE);
    await expect.poll(message).toContain("Challenge 'Second Step' created successfully.");

    // The admin list returns what the form wrote.
    const res = await adminContext.request.get(`${server.url}/api/admin/ctf/fetch_challenges`);
    const list = (await res.json()) as {
      _id: string;
      name: string;
      flags: { type: string; content: string }[];
      max_attempts: number | null;
      hints: { title: string; cost: number }[];
      prerequisites: string[];
    }[];
    const gate = list.find((c) => c.name === 'Regex Gate')!;
    expect(gate.flags).toEqual([
      { type: 'static', content: 'flag{static_one}' },
      { type: 'regex', content: 'flag\\{r[0-9]+\\}' },
    ]);
    expect(gate.max_attempts).toBe(3);
    expect(gate.hints).toMatchObject([{ title: 'Look closer', cost: 25 }]);
    expect(list.find((c) => c.name === 'Second Step')!.prerequisites).toEqual([gate._id]);
    await adminPost('/api/admin/update_site_info', { activated: true });
  });

  it('locks the second challenge, sells a hint after a confirmation, counts attempts and solves by regex', async () => {
    const page = await playerContext.newPage();
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.accept();
    });
    await page.goto(`${server.url}/compete`);
    await expect.poll(() => page.getByText('Locked: solve Regex Gate first.').count()).toBe(1);

    const gateId = await challengeId('Regex Gate');
    await page.goto(`${server.url}/challenge?id=${encodeURIComponent(gateId)}`);
    const hint = page.getByTestId('hint');
    await expect.poll(() => hint.textContent()).toContain('Hint 1: Look closer (25 points)');
    expect(await page.getByTestId('hint-content').count()).toBe(0);
    await expect.poll(() => page.getByTestId('attempts-left').textContent()).toBe('Attempts left: 3');

    await pressAndAnswer(page.getByRole('button', { name: 'Unlock hint 1' }), '/api/ctf/unlock-hint', page);
    await expect.poll(() => page.getByTestId('hint-content').innerHTML()).toContain('<strong>Try</strong>');
    expect(dialogs).toContain('Unlock the hint "Look closer"? It costs your team 25 points.');

    await page.getByRole('textbox', { name: 'Flag' }).fill('flag{nope}');
    await pressAndAnswer(page.getByRole('button', { name: 'Submit Flag' }), '/api/ctf/submit-flag', page);
    await expect.poll(() => page.getByTestId('flag-message').textContent()).toContain(MESSAGES.incorrectFlag);
    await expect.poll(() => page.getByTestId('attempts-left').textContent()).toBe('Attempts left: 2');

    await page.getByRole('textbox', { name: 'Flag' }).fill('  flag{r2025}  ');
    await pressAndAnswer(page.getByRole('button', { name: 'Submit Flag' }), '/api/ctf/submit-flag', page);
    await expect.poll(() => page.getByTestId('flag-message').textContent()).toContain(MESSAGES.correctFlag);

    // The prerequisite is met: the second challenge opens, and the hint's cost is off the score.
    await page.goto(`${server.url}/compete`);
    await expect.poll(() => page.getByRole('link', { name: /Second Step/ }).count()).toBeGreaterThan(0);
    expect(await page.getByText('Locked: solve Regex Gate first.').count()).toBe(0);
    const board = (await (await playerContext.request.get(`${server.url}/api/info/leaderboard`)).json()) as {
      name: string;
      points: number;
    }[];
    expect(board.find((e) => e.name === 'solver')?.points).toBe(pointsFor('Easy') - 25);
    await page.close();
  });

  it('shows a wave as scheduled in the admin list, and it appears for the player at its time', async () => {
    await adminPost('/api/admin/update_site_info', { activated: false });
    await tab('Create Challenge');
    const form = admin.getByRole('form', { name: 'Create Challenge' });
    await form.getByLabel('Name').fill('Night Wave');
    await form.getByLabel('Written by').fill('club');
    await form.getByLabel('Category').selectOption('General');
    await form.getByLabel('Difficulty').selectOption('Simple');
    await form.getByLabel('Flag', { exact: true }).fill('flag{night}');
    await form.getByLabel('Description').fill('<p>Later.</p>');
    await pressAndAnswer(form.getByRole('button', { name: 'Create Challenge' }), CREATE);
    await expect.poll(message).toContain("Challenge 'Night Wave' created successfully.");
    await adminPost('/api/admin/update_site_info', { activated: true });

    // The wave form of the admin list: select, give a time, schedule.
    await tab('View Challenges');
    await admin.getByLabel('Select Night Wave').check();
    await admin.getByLabel('Release time for the selected challenges').fill('2030-01-01T10:00');
    await pressAndAnswer(admin.getByRole('button', { name: 'Schedule 1 selected' }), SCHEDULE);
    const row = admin.getByRole('row', { name: /Night Wave/ });
    await expect.poll(() => row.textContent()).toContain('Scheduled for');

    // Then a release a few seconds ahead: long enough to see it hidden, short enough to wait for.
    const releaseAt = new Date(Date.now() + 4_000);
    await adminPost('/api/admin/ctf/schedule_release', {
      challenge_ids: [await challengeId('Night Wave')],
      release_at: releaseAt.toISOString(),
    });

    const page = await playerContext.newPage();
    const names = async () => {
      const res = await playerContext.request.get(`${server.url}/api/ctf/challenges`);
      return ((await res.json()) as { name: string }[]).map((c) => c.name);
    };
    await page.goto(`${server.url}/compete`);
    await expect.poll(() => page.getByRole('link', { name: /Second Step/ }).count()).toBeGreaterThan(0);
    if (Date.now() < releaseAt.getTime() - 500) {
      expect(await names()).not.toContain('Night Wave');
      expect(await page.getByRole('link', { name: /Night Wave/ }).count()).toBe(0);
    }
    // At its time it is there, for the API and for the page (reloaded as a player would).
    await expect.poll(names, { timeout: 30_000 }).toContain('Night Wave');
    expect(Date.now()).toBeGreaterThanOrEqual(releaseAt.getTime());
    await page.reload();
    await expect.poll(() => page.getByRole('link', { name: /Night Wave/ }).count()).toBeGreaterThan(0);
    await page.close();
  });
});
