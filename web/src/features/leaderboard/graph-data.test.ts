import { describe, expect, it } from 'vitest';
import { alignSeries, graphColor, GRAPH_COLORS, timeFormatter, timeSteps } from './graph-data';

const at = (iso: string) => Date.parse(iso);

describe('alignSeries', () => {
  it('puts every series on one ascending time axis, each at 0 just before its first solve, then held', () => {
    const { times, steps, scores } = alignSeries([
      {
        name: 'a',
        points: [
          { time: '2025-10-15T01:00:00.000Z', score: 100 },
          { time: '2025-10-15T03:00:00.000Z', score: 300 },
        ],
      },
      { name: 'b', points: [{ time: '2025-10-15T02:00:00.000Z', score: 50 }] },
    ]);
    const one = at('2025-10-15T01:00:00.000Z');
    const two = at('2025-10-15T02:00:00.000Z');
    const three = at('2025-10-15T03:00:00.000Z');
    // The axis starts 2% of the span (at least a second) before the first solve.
    expect(times).toEqual([one - 2 * 3600 * 1000 * 0.02, one, two, three]);
    // Drawn: each series' own points (and its 0), nothing between.
    expect(steps).toEqual([
      [0, 100, null, 300],
      [null, 0, 50, null],
    ]);
    // Read by the tooltip: the score held from each solve on.
    expect(scores).toEqual([
      [0, 100, 100, 300],
      [null, 0, 50, 50],
    ]);
  });

  it('keeps one time once when several solves share it, the last score counting; a series may fall', () => {
    const t = '2025-10-15T01:00:00.000Z';
    const { times, steps, scores } = alignSeries([
      {
        name: 'a',
        points: [
          { time: t, score: 100 },
          { time: t, score: 150 },
          { time: '2025-10-15T01:00:01.000Z', score: 120 },
        ],
      },
      { name: 'b', points: [{ time: t, score: 10 }] },
    ]);
    expect(times).toEqual([at(t) - 1000, at(t), at(t) + 1000]);
    expect(steps).toEqual([
      [0, 150, 120],
      [0, 10, null],
    ]);
    expect(scores).toEqual([
      [0, 150, 120],
      [0, 10, 10],
    ]);
  });

  it('gives an empty axis for no points', () => {
    expect(alignSeries([])).toEqual({ times: [], steps: [], scores: [] });
    expect(alignSeries([{ name: 'a', points: [] }])).toEqual({ times: [], steps: [[]], scores: [[]] });
    // A series with no points beside one with some: null all along.
    const { scores } = alignSeries([
      { name: 'a', points: [] },
      { name: 'b', points: [{ time: '2025-10-15T01:00:00.000Z', score: 5 }] },
    ]);
    expect(scores).toEqual([
      [null, null],
      [0, 5],
    ]);
  });
});

describe('graph labels and colours', () => {
  it('reads times to the second within an hour, to the minute with the day beyond', () => {
    const ms = at('2025-10-15T01:02:03.000Z');
    expect(timeFormatter(59 * 60 * 1000)(ms)).toBe(
      new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' }),
    );
    expect(timeFormatter(3 * 24 * 3600 * 1000)(ms)).toBe(
      new Date(ms).toLocaleString(undefined, {
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      }),
    );
  });

  it('never steps the time axis finer than its labels read', () => {
    const steps = (span: number) => timeSteps(span);
    expect(Math.min(...steps(59 * 60 * 1000))).toBe(1000);
    expect(Math.min(...steps(6 * 24 * 3600 * 1000))).toBe(60 * 1000);
    for (const span of [2000, 3600 * 1000, 6 * 24 * 3600 * 1000]) {
      const s = steps(span);
      expect([...s].sort((a, b) => a - b)).toEqual(s);
    }
  });

  it('gives ten distinct colours, then starts again', () => {
    expect(new Set(GRAPH_COLORS).size).toBe(10);
    expect(graphColor(10)).toBe(graphColor(0));
  });
});
