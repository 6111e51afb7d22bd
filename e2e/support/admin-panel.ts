import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { seriousViolations } from './a11y.js';

/**
 * Opens an admin panel tab and waits until it is the selected one. The controls above the tabs
 * (the setup checklist, the site switch) arrive after the tabs and move them down, so a click at
 * that moment can land beside the tab: it is clicked again until the tab says it is selected.
 */
export async function openAdminTab(page: Page, name: string): Promise<void> {
  const tab = page.getByRole('tab', { name, exact: true });
  await expect
    .poll(
      async () => {
        if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
        return tab.getAttribute('aria-selected');
      },
      { timeout: 30_000, message: `the admin tab '${name}' is selected` },
    )
    .toBe('true');
}

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
