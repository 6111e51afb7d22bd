import { GRAPH_TOP_DEFAULT, type GraphSeries } from '@ctf/contract';
import { Suspense, lazy, startTransition, useState } from 'react';
import { Table } from 'react-bootstrap';
import { QueryError } from '../../../components/QueryError';
import { useIdleAfterPaint } from '../../../lib/hydration';
import { useScoreGraph } from '../api/score-graph';
import { graphColor } from '../graph-data';

const ScoreGraphChart = lazy(() => import('./ScoreGraphChart'));

const when = (iso: string) => new Date(iso).toLocaleString();

/**
 * The race on the leaderboard page: the top 10's points over time as a step chart (its code
 * loaded only when shown), and the same data as a table for screen readers and keyboards; of the
 * division the board shows ('' : the whole board).
 *
 * On a phone this page stays open all week, so it must not jump or stall (issue 28): the section
 * takes its final size at once (the chart's box has a fixed height, the legend is drawn with the
 * page, and the loading notice stands in the same box), the chart draws on a canvas after the
 * first paint, and the table's rows (thousands in a long event) are made only once it is opened.
 */
export function ScoreGraph({ division = '' }: { division?: string }) {
  // Asked for, loaded and drawn once the browser is idle after the first paint: the board's first
  // view (the server's HTML) is drawn first; the graph's box holds its size meanwhile.
  const graph = useScoreGraph(division, GRAPH_TOP_DEFAULT, useIdleAfterPaint());
  if (graph.isError)
    return <QueryError what="the score graph" error={graph.error} onRetry={() => graph.refetch()} />;
  const series = graph.data?.series;
  if (series?.length === 0) return null;
  return (
    <section aria-labelledby="score-graph-title" className="mb-4">
      <h2 id="score-graph-title" className="h4">
        {series ? `Top ${series.length}${division ? ` in ${division}` : ''} over time` : 'Score graph'}
      </h2>
      {series ? (
        <div aria-hidden="true" className="score-graph" data-testid="score-graph-chart">
          <Suspense fallback={<div className="score-graph-canvas" />}>
            <ScoreGraphChart series={series} />
          </Suspense>
          <Legend series={series} />
        </div>
      ) : (
        <div className="score-graph">
          <p role="status">Loading the score graph…</p>
        </div>
      )}
      {/* There before the data, so that its line never pushes the page down when the data comes. */}
      <GraphTable series={series ?? []} />
    </section>
  );
}

/** Which colour is whose (the chart's own legend would come only with its code, moving the page). */
function Legend({ series }: { series: GraphSeries[] }) {
  return (
    <ul className="score-graph-legend list-inline small mb-0">
      {series.map((s, i) => (
        <li key={s.name} className="list-inline-item">
          <span className="chart-swatch" style={{ backgroundColor: graphColor(i) }} />
          {s.name}
        </li>
      ))}
    </ul>
  );
}

function GraphTable({ series }: { series: GraphSeries[] }) {
  const [open, setOpen] = useState(false);
  return (
    <details
      className="mt-2"
      onToggle={(e) => {
        const opened = e.currentTarget.open;
        // Thousands of rows render in slices, leaving the page responsive.
        startTransition(() => setOpen(opened));
      }}
    >
      <summary>Score graph as a table</summary>
      {open && series.length > 0 && (
        <div
          className="table-responsive"
          style={{ maxHeight: 320 }}
          tabIndex={0}
          role="region"
          aria-label="Score graph table"
        >
          <Table size="sm" striped className="mb-0" data-testid="score-graph-table">
            <caption>Each competitor&apos;s total after each scoring solve</caption>
            <thead>
              <tr>
                <th scope="col">Competitor</th>
                <th scope="col">Time</th>
                <th scope="col">Score</th>
              </tr>
            </thead>
            <tbody>
              {series.flatMap((s) =>
                s.points.map((p, i) => (
                  <tr key={`${s.name}-${i}`}>
                    <th scope="row">{s.name}</th>
                    <td>
                      <time dateTime={p.time}>{when(p.time)}</time>
                    </td>
                    <td>{p.score}</td>
                  </tr>
                )),
              )}
            </tbody>
          </Table>
        </div>
      )}
    </details>
  );
}
