import type { GraphSeries } from '@ctf/contract';
import { dateText, esc } from './archive-html.js';

/** Ten line colours, each at least 3:1 against white (WCAG's non-text contrast). */
const COLOURS = [
  '#1f5fbf',
  '#c23b22',
  '#2e7d32',
  '#7b1fa2',
  '#b35900',
  '#00796b',
  '#ad1457',
  '#4e5b16',
  '#5d4037',
  '#37474f',
];

const WIDTH = 720;
const HEIGHT = 320;
const PAD = { left: 56, right: 12, top: 12, bottom: 36 };

/**
 * The score graph of the top competitors as an inline SVG (no script, no request): a line per
 * competitor over the event, the axes' ends labelled, the legend and the text alternative as HTML
 * beside it (a list of each competitor's final score).
 */
export function scoreGraphFigure(
  series: readonly GraphSeries[],
  window: { start: string; end: string },
): string {
  const withPoints = series.filter((s) => s.points.length > 0);
  if (withPoints.length === 0) return '<p>No one has scored yet: there is no score graph.</p>';
  const times = withPoints.flatMap((s) => s.points.map((p) => Date.parse(p.time)));
  const t0 = Math.min(Date.parse(window.start), ...times);
  const t1 = Math.max(Date.parse(window.end), ...times, t0 + 1);
  const top = Math.max(1, ...withPoints.flatMap((s) => s.points.map((p) => p.score)));
  const low = Math.min(0, ...withPoints.flatMap((s) => s.points.map((p) => p.score)));
  const x = (t: number) => PAD.left + ((t - t0) / (t1 - t0)) * (WIDTH - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + ((top - v) / (top - low)) * (HEIGHT - PAD.top - PAD.bottom);
  const f = (n: number) => n.toFixed(1);
  const lines = withPoints.map((s, i) => {
    // A step line: the score holds until the next solve, and to the end of the event.
    let d = `M${f(x(t0))} ${f(y(0))}`;
    for (const p of s.points) {
      const px = x(Date.parse(p.time));
      d += ` H${f(px)} V${f(y(p.score))}`;
    }
    d += ` H${f(x(t1))}`;
    return `<path d="${d}" fill="none" stroke="${COLOURS[i % COLOURS.length]}" stroke-width="2"/>`;
  });
  const axis = `<path d="M${PAD.left} ${PAD.top} V${HEIGHT - PAD.bottom} H${WIDTH - PAD.right}" fill="none" stroke="#555"/>`;
  const labels = [
    `<text x="${PAD.left - 6}" y="${PAD.top + 10}" text-anchor="end">${esc(top)}</text>`,
    `<text x="${PAD.left - 6}" y="${f(y(0))}" text-anchor="end">0</text>`,
    `<text x="${PAD.left}" y="${HEIGHT - 12}">${esc(dateText(new Date(t0).toISOString()))}</text>`,
    `<text x="${WIDTH - PAD.right}" y="${HEIGHT - 12}" text-anchor="end">${esc(dateText(new Date(t1).toISOString()))}</text>`,
  ];
  const final = (s: GraphSeries) => s.points[s.points.length - 1]!.score;
  const summary = `Score over time of the top ${withPoints.length}, from ${dateText(new Date(t0).toISOString())} to ${dateText(new Date(t1).toISOString())}.`;
  const legend = withPoints
    .map(
      (s, i) =>
        `<li><svg width="24" height="10" aria-hidden="true" focusable="false"><rect width="24" height="10" fill="${COLOURS[i % COLOURS.length]}"/></svg> ${esc(s.name)}: ${esc(final(s))} points</li>`,
    )
    .join('');
  return `<figure class="graph">
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-labelledby="graph-title graph-desc" font-size="12" fill="#1b1b1b">
<title id="graph-title">Score graph</title>
<desc id="graph-desc">${esc(summary)} Each competitor's final score is listed below the graph.</desc>
${axis}
${lines.join('\n')}
${labels.join('\n')}
</svg>
<figcaption>${esc(summary)}</figcaption>
<ol class="legend">${legend}</ol>
</figure>
`;
}
