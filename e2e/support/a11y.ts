import { createRequire } from 'node:module';
import type { Locator, Page, Request } from 'playwright-core';

const require = createRequire(import.meta.url);
const axeSource = (require('axe-core') as { source: string }).source;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Runs axe-core in the page (WCAG 2.x A and AA rules plus best practices) and returns the serious
 * and critical violations, each as one readable line. The page's context must bypass the site's
 * CSP (`bypassCSP: true`) so the checker's script can be injected.
 */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async (context) => {
    const axe = (
      window as unknown as { axe: { run: (c: unknown) => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run(context ?? document);
    return result.violations;
  }, include ?? null);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `[${v.impact}] ${v.id}: ${v.help} at ${v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(' ')} (${(n.failureSummary ?? '').replace(/\s+/g, ' ').trim()})`)
          .join('; ')}`,
    );
}

const inflight = new WeakMap<Page, { count: number; last: number }>();

/** Starts counting the page's requests in flight, for settle(). Call it right after newPage(). */
export function trackRequests(page: Page): Page {
  const state = { count: 0, last: Date.now() };
  inflight.set(page, state);
  const done = () => {
    state.count = Math.max(0, state.count - 1);
    state.last = Date.now();
  };
  // The live event stream (GET /api/events) stays open for the page's whole life: it is not work
  // in flight, and counting it would make every settle() wait for its deadline.
  const counted = (r: Request) => r.resourceType() !== 'eventsource';
  page.on('request', (r) => {
    if (!counted(r)) return;
    state.count += 1;
    state.last = Date.now();
  });
  page.on('requestfinished', (r) => counted(r) && done());
  page.on('requestfailed', (r) => counted(r) && done());
  return page;
}

/**
 * Waits until the page shows a heading in <main>, no loading text, and (for a tracked page) no
 * request has been in flight for 150 ms. Quicker than Playwright's 'networkidle' (500 ms).
 */
export async function settle(page: Page, quietMs = 150): Promise<void> {
  await page.waitForFunction(() => {
    const main = document.querySelector('main');
    return !!main && !!main.querySelector('h1') && !/Loading/.test(main.innerText);
  });
  const state = inflight.get(page);
  if (!state) return;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (state.count === 0 && Date.now() - state.last >= quietMs) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  await page.waitForFunction(() => !/Loading/.test(document.querySelector('main')?.innerText ?? ''));
}

/** Presses Tab until `target` has focus; fails after `max` presses. Returns how many it took. */
export async function tabTo(page: Page, target: Locator, max = 80): Promise<number> {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return i;
  }
  const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120));
  throw new Error(`Tab never reached the target in ${max} presses (focus is on ${focused})`);
}

export interface TabStop {
  /** A short description: tag, name and id. */
  label: string;
  /** Whether a focus indicator is drawn (an outline or a box-shadow ring, on it or its toggle label). */
  visible: boolean;
}

/**
 * Walks the page with Tab from the top until focus leaves the page or comes back to the first
 * stop, recording each stop and whether its focus ring shows. Also lists the visible, enabled
 * controls that Tab never reached (radio groups count once: arrow keys move inside them).
 */
export async function walkTabOrder(
  page: Page,
  max = 150,
): Promise<{ stops: TabStop[]; unreached: string[] }> {
  await page.evaluate(() => {
    // Start from the top whatever has focus now: focusing <body> moves Tab's starting point there.
    document.body.setAttribute('tabindex', '-1');
    document.body.focus();
    document.body.removeAttribute('tabindex');
    window.scrollTo(0, 0);
    (window as unknown as { __reached: Set<Element> }).__reached = new Set();
  });
  const stops: TabStop[] = [];
  let first: string | null = null;
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      (window as unknown as { __reached: Set<Element> }).__reached.add(el);
      const ringOf = (e: Element) => {
        const s = getComputedStyle(e);
        const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
        const shadow = s.boxShadow !== 'none' && s.boxShadow !== '';
        return outline || shadow;
      };
      // A toggle button's radio is hidden; its <label class="btn"> beside it shows the focus.
      const shown = el.classList.contains('btn-check') ? el.nextElementSibling : el;
      const name = (el.getAttribute('aria-label') ?? el.textContent ?? '')
        .trim()
        .replace(/\s+/g, ' ')
        .slice(0, 40);
      const key = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${name}"`;
      return { key, visible: !!shown && ringOf(shown) };
    });
    if (!stop) break;
    if (first === null) first = stop.key;
    else if (stop.key === first) break;
    stops.push({ label: stop.key, visible: stop.visible });
  }
  const unreached = await page.evaluate(() => {
    const reached = (window as unknown as { __reached: Set<Element> }).__reached;
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex]:not([tabindex="-1"])';
    const radioGroupsReached = new Set(
      [...reached]
        .filter((e) => e instanceof HTMLInputElement && e.type === 'radio')
        .map((e) => (e as HTMLInputElement).name),
    );
    return Array.from(document.querySelectorAll<HTMLElement>(selector))
      .filter((el) => !(el as HTMLButtonElement).disabled && el.getAttribute('tabindex') !== '-1')
      .filter((el) => {
        // Hidden radios behind toggle buttons are reached through their own focus; check the label.
        const box = el.classList.contains('btn-check') ? el.nextElementSibling! : el;
        return box.checkVisibility({ visibilityProperty: true }) && box.getClientRects().length > 0;
      })
      .filter((el) => !el.closest('[inert], [aria-hidden="true"]'))
      .filter(
        (el) => !(el instanceof HTMLInputElement && el.type === 'radio' && radioGroupsReached.has(el.name)),
      )
      .filter((el) => !reached.has(el))
      .map((el) => el.outerHTML.slice(0, 120));
  });
  return { stops, unreached };
}
