import { Suspense, lazy } from 'react';
import { Table } from 'react-bootstrap';
import { QueryError } from '../../../components/QueryError';
import { useScoreGraph } from '../api/score-graph';

const ScoreGraphChart = lazy(() => import('./ScoreGraphChart'));

const when = (iso: string) => new Date(iso).toLocaleString();

/**
 * The race on the leaderboard page: the top 10's points over time as a step chart (loaded only
 * when shown), and the same data as a table for screen readers and keyboards; of the division the
 * board shows ('' : the whole board).
 */
export function ScoreGraph({ division = '' }: { division?: string }) {
  const graph = useScoreGraph(division);
  if (graph.isPending) return <p role="status">Loading the score graph…</p>;
  if (graph.isError)
    return <QueryError what="the score graph" error={graph.error} onRetry={() => graph.refetch()} />;
  const { series } = graph.data;
  if (series.length === 0) return null;
  return (
    <section aria-labelledby="score-graph-title" className="mb-4">
      <h2 id="score-graph-title" className="h4">
        Top {series.length}
        {division ? ` in ${division}` : ''} over time
      </h2>
      <div aria-hidden="true" data-testid="score-graph-chart">
        <Suspense fallback={<p>Loading chart…</p>}>
          <ScoreGraphChart series={series} />
        </Suspense>
      </div>
      <details className="mt-2">
        <summary>Score graph as a table</summary>
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
      </details>
    </section>
  );
}
