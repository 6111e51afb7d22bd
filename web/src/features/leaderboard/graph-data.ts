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

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * The time axis' possible tick steps (ms): never finer than its labels read (a second within an
 * hour, a minute beyond), or two ticks would bear the same label.
 */
export function timeSteps(spanMs: number): number[] {
  const minutes = [1, 2, 5, 10, 15, 30].map((m) => m * MINUTE_MS);
  const hours = [1, 2, 3, 6, 12].map((h) => h * HOUR_MS);
  const days = [1, 2, 7, 14, 28].map((d) => d * DAY_MS);
  return spanMs < HOUR_MS
    ? [1, 2, 5, 10, 15, 30].map((s) => s * SECOND_MS).concat(minutes, hours)
    : [...minutes, ...hours, ...days];
}

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
