import type { Locator, Page } from 'playwright-core';
import { seriousViolations } from './a11y.js';

/** The rows of an admin table as the cells' texts, trimmed. */
export async function tableCells(table: Locator): Promise<string[][]> {
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => (td.textContent ?? '').trim())),
    );
}

/**
 * axe on the admin panel once the open tab's pane is fully shown: no fade in progress (axe reads
 * colours) and no "Loading" left in it.
 */
export async function settledTabViolations(page: Page): Promise<string[]> {
  await page.waitForFunction(() => {
    const pane = document.querySelector('.tab-pane.active');
    return !!pane && getComputedStyle(pane).opacity === '1' && !/Loading/.test(pane.textContent ?? '');
  });
  return seriousViolations(page);
}
