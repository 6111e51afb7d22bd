import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEvent } from '../bench/seed.js';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { createChallenge } from '../server/src/modules/challenges/challenges.service.js';
import { instanceDefinition } from '../server/test/instance-fixtures.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { expectStillAsTheStylesheetArrives, hydrated, slowPhone } from './support/first-view.js';
import { startServer, type RunningServer } from './support/server.js';

const run = browserAvailable();
const SECRET = 'e2e-first-view-secret-0123456789-abcdefghij';

/**
 * A challenge's page drawn by the server for a signed-in player during the event (a page whose
 * writeup panels the reader's clock decides, after it, stays browser-drawn): from their own answer
 * for it, hydrated without a mismatch or a second request for what it carried, then live.
 */
describe.runIf(run)('the challenge page rendered by the server, in Chromium', { timeout: 120_000 }, () => {
  let dataDir: string;
  let server: RunningServer;
  let browser: Browser;
  let token = '';
  let hinted = 0;
  let contained = 0;
  const DAY = 86_400_000;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'ctf-e2e-first-view-challenge-'));
    const window = {
      EVENT_START: new Date(Date.now() - DAY).toISOString(),
      EVENT_END: new Date(Date.now() + 7 * DAY).toISOString(),
    };
    const env = { DATA_DIR: dataDir, SESSION_SECRET: SECRET, LOG_LEVEL: 'silent', ...window };
    const { app, ctx } = await buildApp(loadConfig(env), { logger: false });
    const event = await seedEvent(ctx, {
      users: 20,
      teams: 0,
      challenges: 2,
      solves: 10,
      files: 0,
      sessions: 2,
    });
    hinted = (
      await createChallenge(ctx, {
        name: 'Hydrated box',
        description:
          '<p>Read the <strong>source</strong> &amp; <a href="https://example.org">the docs</a>.</p>',
        category: 'Web Exploitation',
        difficulty: 'Easy',
        written_by: 'club',
        flag: 'flag{hydrated}',
        files: [],
        hints: [{ title: 'Nudge', content: 'Look at <em>the source</em>', cost: 0 }],
      })
    ).id;
    contained = (
      await createChallenge(ctx, {
        name: 'Contained box',
        description: '<p>Connect to your instance.</p>',
        category: 'Web Exploitation',
        difficulty: 'Easy',
        written_by: 'club',
        flag: 'flag{contained}',
        files: [],
        instance: instanceDefinition(),
      })
    ).id;
    await app.close();
    token = event.sessions[0]!.token;
    server = await startServer({ DATA_DIR: dataDir, SESSION_SECRET: SECRET, ...window });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const playerContext = async () => {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    await context.addCookies([{ name: 'ctf_session', value: token, url: server.url }]);
    return context;
  };

  it('sends the challenge in its HTML with the answers it was drawn from, to the player only', async () => {
    const res = await fetch(`${server.url}/challenge?id=${hinted}`, {
      headers: { cookie: `ctf_session=${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    const html = await res.text();
    expect(html).toContain('<h1 id="challenge-name">Hydrated box</h1>');
    expect(html).toContain('Read the <strong>source</strong> &amp; <a href="https://example.org"');
    // (React marks where one text node ends and the next begins.)
    expect(html).toMatch(/Unlock hint (<!-- -->)?1/);
    expect(html).toContain('<script type="application/json" id="first-view-data">');
    expect(html).not.toContain('flag{hydrated}');
    // A visitor, and an id the API refuses, get the browser-drawn page.
    expect(await (await fetch(`${server.url}/challenge?id=${hinted}`)).text()).not.toContain(
      'first-view-data',
    );
    const unknown = await fetch(`${server.url}/challenge?id=99999`, {
      headers: { cookie: `ctf_session=${token}` },
    });
    expect(await unknown.text()).not.toContain('first-view-data');
  });

  it('hydrates on a slow phone without a mismatch or a request for what it carried; a hint, a flag and the instance panel then work', async () => {
    const { context, page, complaints, asked } = await slowPhone(browser, server.url, token);
    page.on('dialog', (d) => void d.accept());

    await page.goto(`${server.url}/challenge?id=${hinted}`);
    await hydrated(page, '#flag-input');
    expect(complaints).toEqual([]);
    expect(asked).not.toContain('/api/ctf/challenge');
    expect(asked).not.toContain('/api/user/info');
    expect(asked).not.toContain('/api/authenticated');
    // The hint unlocks, a wrong flag is answered, the right one marks the challenge solved.
    await page.getByRole('button', { name: 'Unlock hint 1' }).click();
    await expect.poll(() => page.getByTestId('hint-content').innerText()).toContain('Look at the source');
    await page.locator('#flag-input').fill('flag{wrong}');
    await page.getByRole('button', { name: 'Submit Flag' }).click();
    await expect.poll(() => page.getByTestId('flag-message').innerText()).not.toBe('');
    await page.locator('#flag-input').fill('flag{hydrated}');
    await page.getByRole('button', { name: 'Submit Flag' }).click();
    await page.getByRole('heading', { name: 'Rating' }).waitFor();
    expect(complaints).toEqual([]);

    // The instance panel came with the page (none started yet) and answers its button once live.
    asked.length = 0;
    await page.goto(`${server.url}/challenge?id=${contained}`);
    await page.getByTestId('instance-start').waitFor();
    await hydrated(page, '[data-testid="instance-start"]');
    expect(asked).not.toContain('/api/ctf/instance');
    expect(asked).not.toContain('/api/ctf/challenge');
    await page.getByTestId('instance-start').click();
    await expect
      .poll(
        async () =>
          (await page.getByTestId('instance-error').count()) +
          (await page.getByTestId('instance-failed').count()) +
          (await page.getByTestId('instance-starting').count()),
      )
      .toBeGreaterThan(0);
    expect(complaints).toEqual([]);
    await context.close();
  });

  it('paints the challenge page as it stays: nothing moves when the stylesheet arrives', async () => {
    const context = await playerContext();
    for (const id of [hinted, contained])
      await expectStillAsTheStylesheetArrives(context, `${server.url}/challenge?id=${id}`);
    await context.close();
  });
});
