import type { BrowserContext, Page } from 'playwright-core';
import type { FakeOAuthProvider, FakeProfile } from '../../server/test/fake-oauth-provider.js';

/**
 * Signs a browser context in through the local trial sign-in (servers started without OAuth
 * providers on loopback), the same call the login page's form makes.
 */
export async function localSignIn(context: BrowserContext, baseUrl: string, username: string, admin = false) {
  const res = await context.request.post(`${baseUrl}/api/auth/local`, {
    data: { username, admin },
    headers: { origin: baseUrl },
  });
  if (!res.ok()) throw new Error(`local sign-in failed: ${res.status()} ${await res.text()}`);
}

/** Logs in through the real popup and the fake provider; resolves when the page is on /compete. */
export async function popupLogin(
  page: Page,
  baseUrl: string,
  fake: FakeOAuthProvider,
  profile: FakeProfile,
  button: 'Login with GitHub' | 'Login with Discord' = 'Login with GitHub',
) {
  fake.nextProfile = profile;
  await page.goto(`${baseUrl}/login`);
  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: button }).click();
  const popup = await popupPromise;
  await page.waitForURL(`${baseUrl}/compete`);
  return popup;
}
