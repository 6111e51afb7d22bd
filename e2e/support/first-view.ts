import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

/** Every console error and warning, and every uncaught error, of a page (a hydration mismatch is one). */
export function complaintsOf(page: Page): string[] {
  const complaints: string[] = [];
  page.on('pageerror', (e) => complaints.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') complaints.push(m.text());
  });
  return complaints;
}

/**
 * A signed-in player's page on a mid-range phone (4x slower CPU, a phone's viewport), with its
 * complaints (a hydration mismatch is one) and the API paths it asks for.
 */
export async function slowPhone(browser: Browser, serverUrl: string, token: string) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  await context.addCookies([{ name: 'ctf_session', value: token, url: serverUrl }]);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const complaints = complaintsOf(page);
  const asked: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/')) asked.push(url.pathname);
  });
  return { context, page, complaints, asked };
}

/**
 * On a slow link a page's HTML is painted before its stylesheet (linked at the end of the body)
 * arrives: the head must already carry every rule the page's content needs. The stylesheet and the
 * scripts are held until the HTML has been laid out, then the stylesheet alone is let through, and
 * nothing may have moved.
 */
export async function expectStillAsTheStylesheetArrives(context: BrowserContext, url: string): Promise<void> {
  const page = await context.newPage();
  const held: { css: (() => void)[]; js: (() => void)[] } = { css: [], js: [] };
  await page.route(/\/assets\/.*\.(css|js)$/, (route) => {
    const kind = route.request().url().endsWith('.css') ? 'css' : 'js';
    held[kind].push(() => void route.continue());
  });
  const layout = () =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll('nav, main, main > * > *, main > * > * > *')).map((e) => {
        const r = e.getBoundingClientRect();
        return `${e.tagName}.${e.className} ${Math.round(r.top)} ${Math.round(r.left)} ${Math.round(r.width)}x${Math.round(r.height)}`;
      }),
    );
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator('main h1').waitFor();
  await expect.poll(() => held.css.length).toBeGreaterThan(0);
  const before = await layout();
  const sheet = page.waitForFunction(() =>
    Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')).every((l) => l.sheet),
  );
  for (const go of held.css.splice(0)) go();
  await sheet;
  expect(await layout(), url).toEqual(before);
  for (const go of held.js.splice(0)) go();
  await page.close();
}

/** Whether React has hydrated this element (it then holds its fiber): the page is live. */
export async function hydrated(page: Page, selector: string): Promise<void> {
  await page.waitForFunction(
    (s) => Object.keys(document.querySelector(s) ?? {}).some((k) => k.startsWith('__reactFiber')),
    selector,
  );
}
