import type { GraphSeries } from '@ctf/contract';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** Ten distinguishable colours (Tableau 10), one a series. */
const COLORS = [
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
];

const timeLabel = (ms: number) =>
  new Date(ms).toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
/** Within an hour (the first minutes of an event) ticks a minute apart would all read alike. */
const clockLabel = (ms: number) =>
  new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const HOUR_MS = 60 * 60 * 1000;

/**
 * The score graph: each competitor's cumulative points as a step line. This file is the only
 * importer of recharts on the leaderboard page and is loaded lazily (as the team pie chart is).
 */
export default function ScoreGraphChart({ series }: { series: GraphSeries[] }) {
  const lines = series.map((s) => ({
    name: s.name,
    // Each series starts at 0 just before its first solve, so the first step shows.
    data: [
      ...(s.points[0] ? [{ t: Date.parse(s.points[0].time) - 1, score: 0 }] : []),
      ...s.points.map((p) => ({ t: Date.parse(p.time), score: p.score })),
    ],
  }));
  const times = lines.flatMap((l) => l.data.map((d) => d.t));
  const span = times.length ? Math.max(...times) - Math.min(...times) : 0;
  return (
    <ResponsiveContainer width="100%" height={320}>
      <LineChart accessibilityLayer={false} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis
          dataKey="t"
          type="number"
          domain={['dataMin', 'dataMax']}
          scale="time"
          tickFormatter={span < HOUR_MS ? clockLabel : timeLabel}
        />
        <YAxis dataKey="score" type="number" allowDecimals={false} />
        <Tooltip labelFormatter={(v) => timeLabel(Number(v))} />
        <Legend />
        {lines.map((l, i) => (
          <Line
            key={l.name}
            name={l.name}
            data={l.data}
            dataKey="score"
            type="stepAfter"
            stroke={COLORS[i % COLORS.length]}
            dot={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
