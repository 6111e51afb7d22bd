import type { AppContext } from '../../context.js';

/** setTimeout's longest delay; a later release is waited for in steps. */
const MAX_TIMER_MS = 2_147_483_647;
const releaseTimers = new WeakMap<AppContext, { at: number; timer: NodeJS.Timeout }>();

/**
 * Announces the next release when it happens ('challenges.released': the live stream tells open
 * pages to fetch the list that has just turned over). Nothing is written: the list expires by itself.
 */
export function announceReleaseAt(ctx: AppContext, at: number | null): void {
  const current = releaseTimers.get(ctx);
  if (current && current.at === at) return;
  if (current) clearTimeout(current.timer);
  releaseTimers.delete(ctx);
  if (at === null) return;
  const wait = at - ctx.clock.now().getTime();
  const timer = setTimeout(
    () => {
      releaseTimers.delete(ctx);
      if (ctx.clock.now().getTime() < at) announceReleaseAt(ctx, at);
      else void ctx.domainEvents.emit('challenges.released', { at });
    },
    Math.min(Math.max(wait, 0), MAX_TIMER_MS),
  );
  timer.unref();
  releaseTimers.set(ctx, { at, timer });
}

/** Stops the release announcement of an app that closes. */
export function stopReleaseAnnouncements(ctx: AppContext): void {
  const current = releaseTimers.get(ctx);
  if (current) clearTimeout(current.timer);
  releaseTimers.delete(ctx);
}
