import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Opens a challenge page (unless the page is already on it) and sends `flag` through its form,
 * then waits until the form shows `expected` as the answer to this very submission.
 */
export async function submitFlagThroughForm(
  page: Page,
  challengeUrl: string,
  flag: string,
  expected: string,
) {
  if (page.url() !== challengeUrl) await page.goto(challengeUrl);
  await page.locator('#flag-input').fill(flag);
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/ctf/submit-flag');
  await page.getByRole('button', { name: 'Submit Flag' }).click();
  await answered;
  // The form clears its message when it sends, so the text seen here is this answer's.
  await expect.poll(() => page.getByTestId('flag-message').textContent()).toBe(expected);
}
