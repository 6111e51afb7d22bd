import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations, settle } from './support/a11y.js';
import { browserAvailable } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useBrowserSuite } from './support/suite.js';

const run = browserAvailable();

/**
 * Issue 31's personal API tokens in a real browser: a player makes one on the profile page, sees it
 * once, a script uses it (no cookie, no Origin), and revoking it on the page stops the script.
 */
describe.runIf(run)('API tokens in Chromium', { timeout: 180_000 }, () => {
  const suite = useBrowserSuite();
  let server: RunningServer;
  beforeAll(() => {
    server = suite.server;
  });

  /** A script's call: only the token, as a bot would send it. */
  const asScript = (token: string, path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
    });

  it('creates a token shown once, which a script uses until it is revoked on the page', async () => {
    const context = await suite.context('tokenholder', {
      bypassCSP: true,
      reducedMotion: 'reduce',
      viewport: { width: 1280, height: 800 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/profile`);
    const section = page.getByRole('region', { name: 'API tokens' });
    await section.getByText('No API tokens yet.').waitFor();
    // A read-only token first: Play unticked. A script reads with it, and its POST is refused.
    const scopes = section.getByRole('group', { name: 'What the token may do' });
    expect(await scopes.getByRole('checkbox').count()).toBe(2);
    await section.getByLabel('Token name').fill('reader');
    await scopes.getByLabel(/^Play/).uncheck();
    await section.getByRole('button', { name: 'Create token' }).click();
    await section.getByText('Copy this token now: it will not be shown again.').waitFor();
    const reader = (await section.getByTestId('new-api-token').textContent())!.trim();
    await section.getByRole('button', { name: 'Done' }).click();
    await section
      .getByRole('row', { name: /reader/ })
      .getByRole('cell', { name: 'read', exact: true })
      .waitFor();
    expect((await asScript(reader, '/api/user/info')).status).toBe(200);
    const refused = await asScript(reader, '/api/team/create', {
      method: 'POST',
      body: JSON.stringify({ team_name: 'Readers' }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ message: 'This token does not allow that.' });
    // Revoking is the page's, never a token's.
    const selfRevoke = await asScript(reader, '/api/user/tokens/delete', {
      method: 'POST',
      body: JSON.stringify({ token_id: '1' }),
    });
    expect(selfRevoke.status).toBe(403);
    expect(await selfRevoke.json()).toMatchObject({ message: 'This needs a signed-in session.' });

    // The form is back to read and play.
    expect(await scopes.getByLabel(/^Play/).isChecked()).toBe(true);
    await section.getByLabel('Token name').fill('leaderboard bot');
    await section.getByRole('button', { name: 'Create token' }).click();
    await section.getByText('Copy this token now: it will not be shown again.').waitFor();
    const token = (await section.getByTestId('new-api-token').textContent())!.trim();
    expect(token).toMatch(/^ctf_[A-Za-z0-9_-]{43}$/);
    await section.getByRole('button', { name: 'Copy' }).click();
    await section.getByRole('button', { name: 'Copied!' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await section.getByRole('rowheader', { name: 'leaderboard bot' }).waitFor();
    await settle(page);
    expect(await seriousViolations(page)).toEqual([]);
    // On a 375-pixel phone the token and the table fit (the table scrolls inside its own box).
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 800 });

    // A script signs in with the token alone and acts (a POST without an Origin header).
    const info = await asScript(token, '/api/user/info');
    expect(info.status).toBe(200);
    expect(((await info.json()) as { username: string }).username).toBe('tokenholder');
    const team = await asScript(token, '/api/team/create', {
      method: 'POST',
      body: JSON.stringify({ team_name: 'Bots' }),
    });
    expect(team.status, await team.text()).toBe(200);

    // Shown once: a reload lists the token by name, never the token itself.
    await page.reload();
    await section.getByRole('rowheader', { name: 'leaderboard bot' }).waitFor();
    expect(await page.content()).not.toContain(token);
    const cells = section.getByRole('row', { name: /leaderboard bot/ }).getByRole('cell');
    expect(await cells.nth(0).textContent()).toBe('read, play');
    // It expires (90 days by default), and the script's use is recorded (the first use of a
    // minute is written at once).
    expect(await cells.nth(2).textContent()).not.toBe('Never');
    expect(await cells.nth(3).textContent()).not.toBe('Never');

    // Revoked on the page (after the confirmation): the script is refused at once.
    page.once('dialog', (dialog) => void dialog.accept());
    await section.getByRole('button', { name: 'Revoke leaderboard bot' }).click();
    await section.getByRole('rowheader', { name: 'leaderboard bot' }).waitFor({ state: 'detached' });
    expect((await asScript(token, '/api/user/info')).status).toBe(401);
    expect((await asScript(reader, '/api/user/info')).status).toBe(200);
    await context.close();
  });
});
