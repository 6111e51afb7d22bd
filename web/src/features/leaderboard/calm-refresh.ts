import { LEADERBOARD_REFRESH } from '@ctf/contract';

/** What the scheduler reads from the world: injected, so its rules are tested without a browser. */
export interface CalmRefreshEnvironment {
  now(): number;
  /** A number in [0, 1). */
  random(): number;
  setTimer(run: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  /** Whether the page is shown (document.visibilityState === 'visible'). */
  isVisible(): boolean;
}

export interface CalmRefreshOptions {
  minIntervalMs: number;
  jitterMs: number;
}

/**
 * Turns "the board changed" signals into refreshes that a few hundred open pages can afford
 * (issue 20): at most one per `minIntervalMs` (however many changes arrive), each after a random
 * extra delay up to `jitterMs` so that the pages do not all ask in the same instant, and none
 * while the tab is hidden: a change seen while hidden is refreshed when the tab shows again.
 */
export class CalmRefresh {
  private pending = false;
  private timer: unknown = null;
  private last = Number.NEGATIVE_INFINITY;
  private disposed = false;

  constructor(
    private readonly refresh: () => void,
    private readonly env: CalmRefreshEnvironment,
    private readonly options: CalmRefreshOptions = LEADERBOARD_REFRESH,
  ) {}

  /** The board changed: refresh once the interval since the last refresh has passed. */
  changed(): void {
    if (this.disposed) return;
    this.pending = true;
    this.schedule();
  }

  /** The tab was shown or hidden. */
  visibilityChanged(): void {
    if (this.disposed) return;
    if (this.env.isVisible()) this.schedule();
    else this.cancel();
  }

  /** Whether a refresh is owed (a change not yet refreshed). */
  get owed(): boolean {
    return this.pending;
  }

  dispose(): void {
    this.disposed = true;
    this.pending = false;
    this.cancel();
  }

  private schedule(): void {
    if (!this.pending || this.timer !== null || !this.env.isVisible()) return;
    const now = this.env.now();
    const due =
      Math.max(now, this.last + this.options.minIntervalMs) + this.env.random() * this.options.jitterMs;
    this.timer = this.env.setTimer(() => this.fire(), due - now);
  }

  private fire(): void {
    this.timer = null;
    if (this.disposed || !this.pending) return;
    // Hidden since it was scheduled: the change waits for the tab to show again.
    if (!this.env.isVisible()) return;
    this.pending = false;
    this.last = this.env.now();
    this.refresh();
  }

  private cancel(): void {
    if (this.timer === null) return;
    this.env.clearTimer(this.timer);
    this.timer = null;
  }
}

/** The browser's clock, timers, randomness and document visibility. */
export function browserEnvironment(): CalmRefreshEnvironment {
  return {
    now: () => Date.now(),
    random: () => Math.random(),
    setTimer: (run, ms) => window.setTimeout(run, ms),
    clearTimer: (handle) => window.clearTimeout(handle as number),
    isVisible: () => document.visibilityState !== 'hidden',
  };
}
