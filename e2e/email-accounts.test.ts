import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpTestServer, linkIn } from '../server/test/smtp-test-server.js';
import { seriousViolations, settle } from './support/a11y.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { localSignIn } from './support/session.js';

const run = browserAvailable();
const PHONE = { width: 375, height: 812 };

/**
 * E-mail accounts in Chromium on a 375px-wide phone, with a real SMTP server receiving the mails:
 * sign up, follow the confirmation link from the mail, sign in, then reset the password through the
 * mailed link. Every form passes axe and fits the screen.
 */
describe.runIf(run)('e-mail accounts in Chromium', { timeout: 120_000 }, () => {
  const smtp = new SmtpTestServer();
  let server: RunningServer;
  let browser: Browser;
  const problems: string[] = [];

  beforeAll(async () => {
    await smtp.start();
    server = await startServer(smtp.env());
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp.stop();
  });

  async function check(page: Page, label: string) {
    await settle(page);
    for (const v of await seriousViolations(page)) problems.push(`${label}: ${v}`);
    const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    expect(width, `${label} scrolls sideways`).toBeLessThanOrEqual(PHONE.width);
  }

  it('signs up, follows the mailed link, signs in, and resets the password by mail', async () => {
    const context = await browser.newContext({ viewport: PHONE, bypassCSP: true, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByTestId('email-sign-in').waitFor();
    await check(page, 'login');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await check(page, 'sign-up form');
    const form = page.getByTestId('email-sign-in');
    await form.getByLabel('Username').fill('grace');
    await form.getByLabel('E-mail address').fill('grace@uni.example');
    await form.getByLabel('Password').fill('a long pass phrase');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Check your e-mail to confirm your account.').waitFor();

    const confirm = linkIn(await smtp.next('grace@uni.example'), '/api/auth/email/confirm');
    await page.goto(confirm.toString());
    await page.waitForURL(`${server.url}/login?confirmed=1`);
    await page.getByText('Your e-mail address is confirmed').waitFor();
    await check(page, 'confirmed');
    await form.getByLabel('E-mail address').fill('grace@uni.example');
    await form.getByLabel('Password').fill('a long pass phrase');
    await form.getByRole('button', { name: 'Sign in', exact: true }).last().click();
    await page.waitForURL(`${server.url}/compete`);

    // Signed out (another browser), the password is reset through the mailed link.
    const other = await browser.newContext({ viewport: PHONE, bypassCSP: true, reducedMotion: 'reduce' });
    const phone = await other.newPage();
    await phone.goto(`${server.url}/login`);
    await phone.getByRole('button', { name: 'Reset password' }).click();
    await check(phone, 'reset request form');
    await phone.getByTestId('email-sign-in').getByLabel('E-mail address').fill('grace@uni.example');
    await phone.getByRole('button', { name: 'Send me a link' }).click();
    await phone.getByText('If an account uses that address, we sent it a link.').waitFor();
    const reset = linkIn(await smtp.next('grace@uni.example'), '/reset-password');
    await phone.goto(reset.toString());
    await phone.getByLabel('New password').waitFor();
    await check(phone, 'reset page');
    await phone.getByLabel('New password').fill('another pass phrase');
    await phone.getByRole('button', { name: 'Set the new password' }).click();
    await phone.getByText('Your password is changed').waitFor();
    // The reset ended the first browser's session.
    expect((await page.request.get(`${server.url}/api/authenticated`)).status()).toBe(401);
    await other.close();
    await context.close();
    expect(problems).toEqual([]);
  });

  it("the profile's ways to sign in pass axe and fit the phone", async () => {
    const context = await browser.newContext({ viewport: PHONE, bypassCSP: true, reducedMotion: 'reduce' });
    await localSignIn(context, server.url, 'casey', false);
    const page = await context.newPage();
    await page.goto(`${server.url}/profile`);
    await page.getByTestId('sign-in-methods').getByLabel('E-mail address').waitFor();
    await check(page, 'profile ways in');
    await context.close();
    expect(problems).toEqual([]);
  });

  it("the admin's sign-in settings and the Users tab's ways in pass axe and fit the phone", async () => {
    const context = await browser.newContext({ viewport: PHONE, bypassCSP: true, reducedMotion: 'reduce' });
    await localSignIn(context, server.url, 'admin', true);
    const page = await context.newPage();
    await page.goto(`${server.url}/admin/panel?tab=settings&section=signin`);
    await page.getByLabel('Registration code (empty: none)').waitFor();
    await check(page, 'settings');
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByLabel('Address to block').waitFor();
    await check(page, 'users tab');
    await context.close();
    expect(problems).toEqual([]);
  });
});
