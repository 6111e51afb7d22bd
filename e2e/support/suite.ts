import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.js';
import { startServer, type RunningServer } from './server.js';
import { localSignIn } from './session.js';

export interface BrowserSuite {
  /** The built server, started before the describe block's tests. */
  readonly server: RunningServer;
  readonly browser: Browser;
  /**
   * A new browser context, closed after the tests; signed in as `user` through the local trial
   * sign-in (as an admin when `admin`), or signed out when `user` is null.
   */
  context(
    user: string | null,
    options?: { admin?: boolean } & BrowserContextOptions,
  ): Promise<BrowserContext>;
}

/**
 * The common frame of a browser suite: called inside a describe block, it starts one server (with
 * `env`) and one Chromium before the tests and, after them, closes every context it opened, the
 * browser and the server.
 */
export function useBrowserSuite(env: Record<string, string> = {}): BrowserSuite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    server = await startServer(env);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await server?.stop();
  });
  const suite: BrowserSuite = {
    get server() {
      if (!server) throw new Error('the suite has not started its server yet');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('the suite has not started its browser yet');
      return browser;
    },
    async context(user, { admin = false, ...options } = {}) {
      const context = await suite.browser.newContext(options);
      contexts.push(context);
      if (user) await localSignIn(context, suite.server.url, user, admin);
      return context;
    },
  };
  return suite;
}

/** Presses a button and waits for the server's answer to the call it makes (`path`: its pathname). */
export async function pressAndAnswer(button: Locator, path: string, page: Page) {
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === path, { timeout: 60_000 });
  await button.click();
  await answered;
}
