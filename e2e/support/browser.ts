import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, or CHROME_PATH. */
export function chromiumPath(): string | null {
  const candidate = process.env.CHROME_PATH || '/usr/bin/chromium';
  return existsSync(candidate) ? candidate : null;
}

/**
 * Whether the browser tests can run. With no Chromium they are skipped with one loud line, unless
 * REQUIRE_BROWSER=1 (CI), where a missing browser fails the run instead.
 */
export function browserAvailable(): boolean {
  if (chromiumPath()) return true;
  if (process.env.REQUIRE_BROWSER === '1') {
    throw new Error('REQUIRE_BROWSER=1 but no Chromium at CHROME_PATH or /usr/bin/chromium');
  }
  console.warn(
    '\n!!! BROWSER TESTS SKIPPED: no Chromium at CHROME_PATH or /usr/bin/chromium (apt-get install chromium) !!!\n',
  );
  return false;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath()!,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
