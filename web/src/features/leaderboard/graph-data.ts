import type { GraphSeries } from '@ctf/contract';

/** Ten distinguishable colours (Tableau 10), one a series, in the order the answer lists them. */
export const GRAPH_COLORS = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
] as const;

export const graphColor = (index: number) => GRAPH_COLORS[index % GRAPH_COLORS.length]!;

/**
 * The series on one time axis, as the canvas chart wants them: `times` (ms, ascending, each once)
 * and, for each series, its score at each of those times: null before it started, 0 at the time
 * just before its first solve (so its first step rises from 0), then its score held until the
 * next solve and to the end of the axis (its score on the board), so the tooltip reads every
 * competitor's total at any moment. The axis starts a little before the first solve (2% of the
 * span, at least a second), where the first scorer's 0 stands. Linear in the number of points
 * times series: ten series of a few hundred solves each are a few thousand cells.
 */
export function alignSeries(series: readonly GraphSeries[]): {
  times: number[];
  scores: (number | null)[][];
} {
  const parsed = series.map((s) => s.points.map((p) => ({ t: Date.parse(p.time), score: p.score })));
  const solveTimes = [...new Set(parsed.flatMap((ps) => ps.map((p) => p.t)))].sort((a, b) => a - b);
  if (solveTimes.length === 0) return { times: [], scores: series.map(() => []) };
  const span = solveTimes[solveTimes.length - 1]! - solveTimes[0]!;
  const times = [solveTimes[0]! - Math.max(1000, Math.round(span * 0.02)), ...solveTimes];
  const scores = parsed.map((ps) => {
    const row: (number | null)[] = new Array<number | null>(times.length).fill(null);
    let next = 0;
    let current: number | null = null;
    for (let i = 0; i < times.length; i++) {
      // Several points at one time (two solves in the same millisecond): the last one counts.
      while (next < ps.length && ps[next]!.t <= times[i]!) current = ps[next++]!.score;
      row[i] = current ?? (ps[0] && times[i + 1] === ps[0].t ? 0 : null);
    }
    return row;
  });
  return { times, scores };
}

const HOUR_MS = 60 * 60 * 1000;

/** An axis or tooltip time: day and minute; within an hour (an event's first minutes), the clock to the second. */
export function timeFormatter(spanMs: number): (ms: number) => string {
  return spanMs < HOUR_MS
    ? (ms) =>
        new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' })
    : (ms) =>
        new Date(ms).toLocaleString(undefined, {
          month: 'short',
          day: 'numeric',
          hour: '2-digit',
          minute: '2-digit',
        });
}
