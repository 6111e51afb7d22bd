import { describe, expect, it } from 'vitest';
import { atMostEvery } from './housekeeping.js';

describe('housekeeping at most once per interval', () => {
  it('is due at first, then not until the interval has passed, for each owner alone', () => {
    const due = atMostEvery(60_000);
    const app = {};
    const other = {};
    expect(due(app, 1_000)).toBe(true);
    expect(due(app, 1_000)).toBe(false);
    expect(due(app, 60_999)).toBe(false);
    expect(due(other, 2_000)).toBe(true);
    expect(due(app, 61_000)).toBe(true);
    expect(due(app, 62_000)).toBe(false);
  });

  it('is due again when the clock goes back', () => {
    const due = atMostEvery(60_000);
    const app = {};
    expect(due(app, 100_000)).toBe(true);
    expect(due(app, 50_000)).toBe(true);
    expect(due(app, 50_001)).toBe(false);
  });
});
