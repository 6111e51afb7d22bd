import { useEffect, useState, useSyncExternalStore } from 'react';

const noSubscription = () => () => undefined;

/**
 * False while React renders on the server and while it hydrates the server's HTML, true in every
 * render after (and in a page the browser drew itself). What depends on the browser alone (the
 * clock, the time zone and locale, stored choices) is drawn once this is true, so the hydrating
 * render matches the server's HTML exactly and React never throws it away.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * False until the browser is idle after the page's first paint (requestIdleCallback, or a moment
 * later where it is missing): for what can wait below the page's first view (the leaderboard's
 * score graph), so its request and drawing stay out of the way of that paint.
 */
export function useIdleAfterPaint(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(() => setIdle(true), { timeout: IDLE_TIMEOUT_MS });
      return () => cancelIdleCallback(id);
    }
    const id = setTimeout(() => setIdle(true), 0);
    return () => clearTimeout(id);
  }, []);
  return idle;
}

/** The longest the idle wait lasts on a page that is never idle. */
const IDLE_TIMEOUT_MS = 2_000;
