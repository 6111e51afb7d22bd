import { describe, expect, it } from 'vitest';
import { DrainLoop } from './drain-loop.js';

/** A drain whose runs the test ends by hand, counting them. */
function gatedDrain() {
  const gates: Array<() => void> = [];
  let runs = 0;
  const drain = () =>
    new Promise<void>((resolve) => {
      runs += 1;
      gates.push(resolve);
    });
  return { drain, runs: () => runs, finish: () => gates.shift()?.() };
}

const settle = () => new Promise((r) => setImmediate(r));
const HOUR = 3_600_000;

describe('DrainLoop', () => {
  it('runs one drain at a time; kicks during a run ask for exactly one more run after it', async () => {
    const d = gatedDrain();
    const loop = new DrainLoop(d.drain, HOUR, () => {});
    loop.start();
    expect(d.runs()).toBe(1);
    loop.kick();
    loop.kick();
    loop.kick();
    expect(d.runs()).toBe(1);
    d.finish();
    await settle();
    expect(d.runs()).toBe(2);
    d.finish();
    await settle();
    expect(d.runs()).toBe(2);
    await loop.stop();
  });

  it('stops at once: stopped is true during the last run, stop waits for it, and no run starts after', async () => {
    const d = gatedDrain();
    const loop = new DrainLoop(d.drain, HOUR, () => {});
    loop.start();
    let stopDone = false;
    const stopping = loop.stop().then(() => (stopDone = true));
    expect(loop.stopped).toBe(true);
    await settle();
    expect(stopDone).toBe(false);
    d.finish();
    await stopping;
    loop.kick();
    expect(d.runs()).toBe(1);
  });

  it('hands a failed run to onError and keeps running on the next kick', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const loop = new DrainLoop(
      async () => {
        runs += 1;
        if (runs === 1) throw new Error('outbox unreadable');
      },
      HOUR,
      (err) => errors.push(err),
    );
    loop.start();
    await settle();
    expect(errors).toHaveLength(1);
    loop.kick();
    await settle();
    expect(runs).toBe(2);
    expect(errors).toHaveLength(1);
    await loop.stop();
  });
});
