import { LEADERBOARD_REFRESH } from '@ctf/contract';
import { describe, expect, it } from 'vitest';
import { CalmRefresh, type CalmRefreshEnvironment } from './calm-refresh';

/** A hand-driven clock with timers, visibility and a scripted random source. */
class World implements CalmRefreshEnvironment {
  time = 0;
  visible = true;
  randoms: number[] = [];
  private timers = new Map<number, { at: number; run: () => void }>();
  private nextId = 1;
  refreshes: number[] = [];

  now = () => this.time;
  random = () => this.randoms.shift() ?? 0;
  setTimer = (run: () => void, ms: number) => {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, run });
    return id;
  };
  clearTimer = (handle: unknown) => {
    this.timers.delete(handle as number);
  };
  isVisible = () => this.visible;

  get scheduled(): number[] {
    return [...this.timers.values()].map((t) => t.at);
  }

  /** Moves time forward to `to`, running each timer at its time, in order. */
  advanceTo(to: number): void {
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, t]) => t.at <= to)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
    }
    this.time = to;
  }
}

function setUp() {
  const world = new World();
  const calm = new CalmRefresh(() => world.refreshes.push(world.time), world, {
    minIntervalMs: 5_000,
    jitterMs: 2_000,
  });
  return { world, calm };
}

describe('CalmRefresh', () => {
  it('uses five seconds and some jitter by default', () => {
    expect(LEADERBOARD_REFRESH.minIntervalMs).toBe(5_000);
    expect(LEADERBOARD_REFRESH.jitterMs).toBeGreaterThan(0);
  });

  it('refreshes after the jitter the first time, then at most once per interval however many changes come', () => {
    const { world, calm } = setUp();
    world.randoms = [0.5, 0.25, 0];
    calm.changed();
    expect(world.scheduled).toEqual([1_000]);
    world.advanceTo(999);
    expect(world.refreshes).toEqual([]);
    world.advanceTo(1_000);
    expect(world.refreshes).toEqual([1_000]);
    // A burst of changes: one refresh, no earlier than 5 s after the last, plus its jitter.
    for (let t = 1_100; t < 4_000; t += 100) {
      world.advanceTo(t);
      calm.changed();
    }
    expect(world.scheduled).toEqual([6_500]);
    world.advanceTo(20_000);
    expect(world.refreshes).toEqual([1_000, 6_500]);
    // Quiet for a while: the next change is refreshed after its jitter alone.
    calm.changed();
    world.advanceTo(30_000);
    expect(world.refreshes).toEqual([1_000, 6_500, 20_000]);
  });

  it('never refreshes twice within the interval, whatever the jitter draws', () => {
    const { world, calm } = setUp();
    let seed = 7;
    world.randoms = Array.from({ length: 500 }, () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    });
    for (let t = 0; t < 120_000; t += 300) {
      world.advanceTo(t);
      calm.changed();
    }
    world.advanceTo(200_000);
    const gaps = world.refreshes.slice(1).map((t, i) => t - world.refreshes[i]!);
    expect(world.refreshes.length).toBeGreaterThan(10);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(5_000);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(7_000);
  });

  it('does nothing while the tab is hidden, and refreshes once when it shows again', () => {
    const { world, calm } = setUp();
    world.visible = false;
    calm.changed();
    calm.changed();
    expect(world.scheduled).toEqual([]);
    world.advanceTo(60_000);
    expect(world.refreshes).toEqual([]);
    expect(calm.owed).toBe(true);
    world.visible = true;
    world.randoms = [0.5];
    calm.visibilityChanged();
    world.advanceTo(70_000);
    expect(world.refreshes).toEqual([61_000]);
    expect(calm.owed).toBe(false);
    // Shown with nothing owed: nothing to do.
    calm.visibilityChanged();
    expect(world.scheduled).toEqual([]);
  });

  it('drops a scheduled refresh when the tab is hidden before it runs', () => {
    const { world, calm } = setUp();
    world.randoms = [1];
    calm.changed();
    expect(world.scheduled).toEqual([2_000]);
    world.advanceTo(1_000);
    world.visible = false;
    calm.visibilityChanged();
    expect(world.scheduled).toEqual([]);
    world.advanceTo(10_000);
    expect(world.refreshes).toEqual([]);
    world.visible = true;
    world.randoms = [0];
    calm.visibilityChanged();
    world.advanceTo(10_000);
    expect(world.refreshes).toEqual([10_000]);
  });

  it('keeps the change for later if the tab is hidden when the timer runs (no visibility event seen)', () => {
    const { world, calm } = setUp();
    calm.changed();
    world.visible = false;
    world.advanceTo(5_000);
    expect(world.refreshes).toEqual([]);
    world.visible = true;
    calm.visibilityChanged();
    world.advanceTo(5_000);
    expect(world.refreshes).toEqual([5_000]);
  });

  it('stops for good once disposed', () => {
    const { world, calm } = setUp();
    calm.changed();
    calm.dispose();
    expect(world.scheduled).toEqual([]);
    calm.changed();
    calm.visibilityChanged();
    world.advanceTo(60_000);
    expect(world.refreshes).toEqual([]);
  });
});
