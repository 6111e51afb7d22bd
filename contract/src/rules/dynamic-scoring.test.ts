import { describe, expect, it } from 'vitest';
import {
  challengeValue,
  dynamicScoringProblem,
  dynamicValue,
  type DynamicScoring,
} from './dynamic-scoring.js';

const linear = (initial: number, minimum: number, decay: number): DynamicScoring => ({
  type: 'dynamic',
  function: 'linear',
  initial,
  minimum,
  decay,
});
const log = (initial: number, minimum: number, decay: number): DynamicScoring => ({
  ...linear(initial, minimum, decay),
  function: 'logarithmic',
});

describe('dynamic values (CTFd formulas)', () => {
  it.each([
    // [scoring, solves, value]
    [linear(500, 100, 10), 0, 500],
    [linear(500, 100, 10), 1, 500],
    [linear(500, 100, 10), 2, 490],
    [linear(500, 100, 10), 11, 400],
    [linear(500, 100, 10), 41, 100],
    [linear(500, 100, 10), 1000, 100],
    [linear(500, 100, 0), 1000, 500],
    [linear(100, 100, 50), 7, 100],
    [log(500, 100, 10), 0, 500],
    [log(500, 100, 10), 1, 500],
    [log(500, 100, 10), 2, 496],
    [log(500, 100, 10), 6, 400],
    [log(500, 100, 10), 11, 100],
    [log(500, 100, 10), 12, 100],
    [log(500, 100, 10), 500, 100],
    // decay 0 counts as 1: the second solve already reaches the minimum.
    [log(500, 100, 0), 1, 500],
    [log(500, 100, 0), 2, 100],
    [log(1000, 1, 30), 16, 751],
    [log(10_000, 1, 3), 3, 5556],
  ])('%o after %i solves is worth %i', (scoring, solves, value) => {
    expect(dynamicValue(scoring, solves)).toBe(value);
  });

  it('matches ceil in the order CTFd computes it', () => {
    // (1 - 300) / 7^2 * 5^2 + 300 = 147.44...: ceil gives 148.
    expect(dynamicValue(log(300, 1, 7), 6)).toBe(148);
    // 500 - 0.5 is never produced with whole decays: values are whole at every step.
    expect(dynamicValue(linear(77, 3, 7), 4)).toBe(56);
  });

  it('never rises as solves are added and never goes below the minimum', () => {
    for (const s of [linear(900, 37, 13), log(900, 37, 13), log(50, 1, 1), linear(2, 1, 1)]) {
      let last = Infinity;
      for (let n = 0; n < 200; n++) {
        const v = dynamicValue(s, n);
        expect(v).toBeLessThanOrEqual(last);
        expect(v).toBeGreaterThanOrEqual(s.minimum);
        expect(Number.isInteger(v)).toBe(true);
        last = v;
      }
    }
  });

  it('a static challenge is worth its difficulty whatever the count', () => {
    expect(challengeValue({ type: 'static' }, 300, 0)).toBe(300);
    expect(challengeValue({ type: 'static' }, 300, 999)).toBe(300);
    expect(challengeValue(linear(500, 100, 10), 300, 2)).toBe(490);
  });
});

describe('dynamic scoring validation', () => {
  it.each([
    [{ initial: 500, minimum: 100, decay: 10 }, null],
    [{ initial: 1, minimum: 1, decay: 0 }, null],
    [{ initial: 10_000, minimum: 10_000, decay: 0 }, null],
    [{ initial: 10_001, minimum: 100, decay: 10 }, 'initial'],
    [{ initial: 0, minimum: 0, decay: 10 }, 'initial'],
    [{ initial: 500.5, minimum: 100, decay: 10 }, 'initial'],
    [{ initial: 500, minimum: 0, decay: 10 }, 'minimum'],
    [{ initial: 500, minimum: 501, decay: 10 }, 'minimum'],
    [{ initial: 500, minimum: 1.5, decay: 10 }, 'minimum'],
    [{ initial: 500, minimum: 100, decay: -1 }, 'decay'],
    [{ initial: 500, minimum: 100, decay: 0.5 }, 'decay'],
  ])('%o -> %s', (input, field) => {
    expect(dynamicScoringProblem(input)?.field ?? null).toBe(field);
  });
});
