import { useEffect, useRef } from 'react';
import { browserEnvironment, CalmRefresh } from './calm-refresh';

/** Without a change signal, an open board still checks now and then (a 304 when nothing moved). */
export const FALLBACK_CHECK_MS = 60_000;

/**
 * Runs `refresh` calmly (CalmRefresh: at most every 5 s, jittered, never while the tab is
 * hidden) whenever `subscribe` reports a change, and at least every FALLBACK_CHECK_MS.
 * `subscribe` must be stable (a module-level function): a new one subscribes again.
 */
export function useCalmRefresh(refresh: () => void, subscribe?: (onChange: () => void) => () => void): void {
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  });
  useEffect(() => {
    const calm = new CalmRefresh(() => latest.current(), browserEnvironment());
    const onVisibility = () => calm.visibilityChanged();
    document.addEventListener('visibilitychange', onVisibility);
    const check = window.setInterval(() => calm.changed(), FALLBACK_CHECK_MS);
    const unsubscribe = subscribe?.(() => calm.changed());
    return () => {
      unsubscribe?.();
      window.clearInterval(check);
      document.removeEventListener('visibilitychange', onVisibility);
      calm.dispose();
    };
  }, [subscribe]);
}
