import { UI_TEXT, type UserCompletion } from '@ctf/contract';
import { useState } from 'react';
import { Card, ToggleButton, ToggleButtonGroup } from 'react-bootstrap';
import { QueryError } from '../../../components/QueryError';
import { useCurrentUser } from '../../../lib/auth';
import { useCompletions } from '../../../lib/completions';
import { pointsByMember } from '../points';
import { TeamPieChart } from './TeamPieChart';

type View = 'mine' | 'team';

/** docs/product.md §2 stats widget on the profile: My Stats and Team Stats. */
export function StatsWidget() {
  const [view, setView] = useState<View>('mine');
  return (
    <Card as="section" aria-labelledby="stats-heading" className="my-4">
      <Card.Body>
        <h2 id="stats-heading" className="h4">
          Stats
        </h2>
        <ToggleButtonGroup
          type="radio"
          name="stats-view"
          value={view}
          onChange={(v: View) => setView(v)}
          className="mb-3"
          aria-label="Which stats to show"
        >
          <ToggleButton id="stats-mine" value="mine" variant="outline-primary">
            My Stats
          </ToggleButton>
          <ToggleButton id="stats-team" value="team" variant="outline-primary">
            Team Stats
          </ToggleButton>
        </ToggleButtonGroup>
        {view === 'mine' ? <MyStats /> : <TeamStats />}
      </Card.Body>
    </Card>
  );
}

function MyStats() {
  const me = useCurrentUser();
  if (me.isPending) return <p role="status">Loading…</p>;
  if (me.isError) return <QueryError what="your completions" error={me.error} onRetry={() => me.refetch()} />;
  const completions: UserCompletion[] = me.data?.completions ?? [];
  if (completions.length === 0) return <p>{UI_TEXT.noCompletions}</p>;
  return (
    <ul className="list-group" aria-label="My completions">
      {completions.map((c) => (
        <li key={c.id} className="list-group-item d-flex flex-wrap justify-content-between gap-2">
          <span className="fw-semibold">{c.name}</span>
          <time dateTime={c.time}>{new Date(c.time).toLocaleString()}</time>
        </li>
      ))}
    </ul>
  );
}

function TeamStats() {
  const me = useCurrentUser();
  const onTeam = !!me.data?.team_id;
  const completions = useCompletions(onTeam);
  if (me.isPending) return <p role="status">Loading…</p>;
  if (me.isError) return <QueryError what="your account" error={me.error} onRetry={() => me.refetch()} />;
  if (!onTeam) return <p>{UI_TEXT.notOnTeam}</p>;
  if (completions.isPending) return <p role="status">Loading…</p>;
  if (completions.isError) {
    return (
      <QueryError
        what="your team's completions"
        error={completions.error}
        onRetry={() => completions.refetch()}
      />
    );
  }
  const data = pointsByMember(completions.data.teamCompletions);
  if (data.length === 0) return <p>{UI_TEXT.noCompletions}</p>;
  return (
    <figure className="mb-0">
      <div className="team-pie overflow-auto">
        <TeamPieChart data={data} />
      </div>
      <figcaption>
        Points per member:{' '}
        {data.map((d, i) => (
          <span key={d.name}>
            {i > 0 && ', '}
            {d.name} {d.points}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
