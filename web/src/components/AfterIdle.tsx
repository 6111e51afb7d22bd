import type { ReactNode } from 'react';
import { useIdleAfterPaint } from '../lib/hydration';

/**
 * A part of a page below its first view, drawn once the browser is idle after the page's first
 * paint: each such part in a task of its own, out of the way of what the page shows first.
 */
export function AfterIdle({ children }: { children: ReactNode }) {
  return useIdleAfterPaint() ? <>{children}</> : null;
}
