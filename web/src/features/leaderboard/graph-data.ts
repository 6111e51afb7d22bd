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
 * and, for each series, `steps`: its score at the times of its own points and null elsewhere (the
 * chart draws a step line through them), with a 0 at the time just before its first solve, so
 * that first step rises from 0; and `scores`: its score at every time, held from one solve to the
 * next and to the end of the axis (null before it started), which the tooltip reads. The axis
 * starts a little before the first solve (2% of the span, at least a second), where the first
 * scorer's 0 stands. Linear in the number of points times series: ten series of a few hundred
 * solves each are a few thousand cells, of which the chart draws only the few hundred points
 * each series has.
 */
export function alignSeries(series: readonly GraphSeries[]): {
  times: number[];
  steps: (number | null)[][];
  scores: (number | null)[][];
} {
  const parsed = series.map((s) => s.points.map((p) => ({ t: Date.parse(p.time), score: p.score })));
  const solveTimes = [...new Set(parsed.flatMap((ps) => ps.map((p) => p.t)))].sort((a, b) => a - b);
  if (solveTimes.length === 0)
    return { times: [], steps: series.map(() => []), scores: series.map(() => []) };
  const span = solveTimes[solveTimes.length - 1]! - solveTimes[0]!;
  const times = [solveTimes[0]! - Math.max(1000, Math.round(span * 0.02)), ...solveTimes];
  const steps: (number | null)[][] = [];
  const scores: (number | null)[][] = [];
  for (const ps of parsed) {
    const own: (number | null)[] = new Array<number | null>(times.length).fill(null);
    const held: (number | null)[] = new Array<number | null>(times.length).fill(null);
    let next = 0;
    let current: number | null = null;
    for (let i = 0; i < times.length; i++) {
      const before = next;
      // Several points at one time (two solves in the same millisecond): the last one counts.
      while (next < ps.length && ps[next]!.t <= times[i]!) current = ps[next++]!.score;
      if (next > before) own[i] = current;
      else if (current === null && ps[0] && times[i + 1] === ps[0].t) own[i] = 0;
      held[i] = current ?? own[i] ?? null;
    }
    steps.push(own);
    scores.push(held);
  }
  return { times, steps, scores };
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
