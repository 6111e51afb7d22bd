import type { GraphSeries } from '@ctf/contract';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { alignSeries, graphColor, timeFormatter, timeSteps } from '../graph-data';

/** The theme's text and rule colours (Bootstrap's variables), read again when the theme changes. */
function themeColors(el: Element) {
  const style = getComputedStyle(el);
  return {
    text: style.getPropertyValue('--bs-body-color').trim() || '#212529',
    grid: style.getPropertyValue('--bs-border-color').trim() || '#dee2e6',
  };
}

/** Integer steps only: scores are whole points. */
const SCORE_STEPS = [
  1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000, 20_000, 50_000,
];

/** Times as the span of the chart's axis wants them. */
function formatFor(u: uPlot): (ms: number) => string {
  return timeFormatter(spanOf(u));
}

const spanOf = (u: uPlot) => {
  const times = u.data[0];
  return times.length ? times[times.length - 1]! - times[0]! : 0;
};

/** The chart's data (the shared time axis, then each series' own points) and the held scores the tooltip reads. */
function chartData(series: readonly GraphSeries[]): { data: uPlot.AlignedData; scores: (number | null)[][] } {
  const { times, steps, scores } = alignSeries(series);
  return { data: [times, ...steps], scores };
}

/**
 * The score graph, drawn on a canvas with uPlot (a 50 kB chart for time series): each
 * competitor's cumulative points as a step line, with a tooltip of everyone's score at the
 * pointer's time. It fills the box it is given (ScoreGraph reserves its size before anything
 * loads, so drawing moves nothing) and draws after the page's first paint, in two short tasks;
 * ten series of a few hundred solves take a few milliseconds. New data from a refresh is drawn
 * into the same chart. The legend is ScoreGraph's (drawn with the page, not with this chunk).
 * This file is the only importer of uPlot, loaded lazily.
 */
export default function ScoreGraphChart({ series }: { series: GraphSeries[] }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const held = useRef<(number | null)[][]>([]);
  // The data to draw: the chart takes it once made, and every refresh after.
  const latest = useRef<uPlot.AlignedData>([[]]);
  // The names the chart was made for: other names (another division, a new top 10) make a new one.
  const names = series.map((s) => s.name).join('\n');

  useEffect(() => {
    const el = box.current!;
    let chart: uPlot | null = null;
    let colors = themeColors(el);
    const { data, scores } = chartData(series);
    held.current = scores;
    const tip = document.createElement('div');
    tip.className = 'score-graph-tip small';
    tip.hidden = true;

    // Names are competitors' own words: the tooltip is built from text nodes, never from HTML.
    function showTip(u: uPlot) {
      const { idx, left, top } = u.cursor;
      if (idx == null || left == null || top == null || left < 0) {
        tip.hidden = true;
        return;
      }
      const rows = series
        .map((s, i) => ({ name: s.name, color: graphColor(i), score: held.current[i]?.[idx] }))
        .filter((r) => r.score != null);
      const title = document.createElement('div');
      title.className = 'fw-semibold';
      title.textContent = formatFor(u)(u.data[0][idx]!);
      const lines = rows.map((r) => {
        const line = document.createElement('div');
        const swatch = document.createElement('span');
        swatch.className = 'chart-swatch';
        swatch.style.backgroundColor = r.color;
        line.append(swatch, `${r.name}: ${r.score}`);
        return line;
      });
      tip.replaceChildren(title, ...lines);
      tip.hidden = false;
      // Beside the pointer, on the side with more room.
      const width = u.over.clientWidth;
      tip.style.left = left > width / 2 ? '' : `${left + 12}px`;
      tip.style.right = left > width / 2 ? `${width - left + 12}px` : '';
      tip.style.top = `${Math.min(top, Math.max(0, u.over.clientHeight - tip.offsetHeight))}px`;
    }

    const axis = (values: uPlot.Axis['values'], space: number): uPlot.Axis => ({
      stroke: () => colors.text,
      grid: { stroke: () => colors.grid, dash: [3, 3], width: 1 },
      ticks: { stroke: () => colors.grid, width: 1 },
      values,
      space,
    });
    const options: uPlot.Options = {
      width: el.clientWidth,
      height: el.clientHeight,
      ms: 1,
      legend: { show: false },
      cursor: {
        drag: { x: false, y: false, setScale: false },
        // No dots at the pointer: a series has a point only where it scored; the tooltip reads all.
        points: { show: false },
      },
      scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min), Math.max(max, 1)] } },
      axes: [
        { ...axis((u, splits) => splits.map(formatFor(u)), 110), incrs: (u) => timeSteps(spanOf(u)) },
        { ...axis((_u, splits) => splits.map((v) => String(v)), 30), incrs: SCORE_STEPS },
      ],
      series: [
        {},
        ...series.map((s, i): uPlot.Series => ({
          label: s.name,
          stroke: graphColor(i),
          width: 2,
          // Step after: a score holds until the next solve, and to the right edge after the last.
          paths: uPlot.paths.stepped!({ align: 1, extend: true }),
          spanGaps: true,
          points: { show: false },
        })),
      ],
      hooks: { setCursor: [showTip] },
    };

    // A frame, then a task: the page (and its list) paints first, the chart comes after it, in
    // two tasks, each well under the 50 ms that blocks a phone: the chart is made empty (its
    // elements, axes and sizes), then the lines are drawn (uPlot draws at the end of the task).
    latest.current = data;
    let timer = 0;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => {
        chart = new uPlot(options, [[], ...series.map(() => [])], el);
        chart.over.append(tip);
        timer = window.setTimeout(() => {
          const begin = performance.now();
          plot.current = chart;
          chart!.setData(latest.current);
          // Its cost in the browser's performance timeline (Lighthouse lists it under User Timing).
          queueMicrotask(() =>
            performance.measure('score graph drawn', { start: begin, end: performance.now() }),
          );
        });
      });
    });
    const resize = new ResizeObserver(() => {
      if (chart && el.clientWidth > 0) chart.setSize({ width: el.clientWidth, height: el.clientHeight });
    });
    resize.observe(el);
    const theme = new MutationObserver(() => {
      colors = themeColors(el);
      chart?.redraw(false);
    });
    theme.observe(document.documentElement, { attributes: true, attributeFilter: ['data-bs-theme'] });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
      resize.disconnect();
      theme.disconnect();
      chart?.destroy();
      plot.current = null;
    };
    // Made again only for other names (`series` is read for them); new scores of the same names
    // go through setData below.
  }, [names]);

  const drawn = useRef(series);
  useEffect(() => {
    if (drawn.current === series) return;
    drawn.current = series;
    const { data, scores } = chartData(series);
    held.current = scores;
    latest.current = data;
    plot.current?.setData(data);
  }, [series]);

  return <div ref={box} className="score-graph-canvas" data-testid="score-graph-canvas" />;
}
