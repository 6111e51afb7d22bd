import { RATING_LABELS, RATING_MAX, RATING_MIN, type UserCompletion } from '@ctf/contract';
import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, Container, Form } from 'react-bootstrap';
import { Link } from 'react-router';
import { QueryError } from '../../../components/QueryError';
import { useCurrentUser } from '../../../lib/auth';
import { useRefreshAfterScore } from '../api/invalidate';
import { rateFromRatingPage, type RatingOutcome } from '../api/rate-challenge';

const VALUES = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i);

/** docs/product.md §2 Rate-challenge page: every solved, unrated challenge with its own rating form. */
export function RateChallengePage() {
  const me = useCurrentUser();
  const refresh = useRefreshAfterScore();
  const [message, setMessage] = useState<RatingOutcome | null>(null);
  const rated = new Set(me.data?.user_rates ?? []);
  const waiting = (me.data?.completions ?? []).filter((c) => !rated.has(c.id));

  function onRated(challengeId: string, outcome: RatingOutcome) {
    setMessage(outcome);
    if (outcome.ok) void refresh(challengeId);
  }

  return (
    <Container className="py-3">
      <h1>Rate Challenges</h1>
      <p>Rate the challenges you solved so others know which ones are worth their time.</p>
      <div aria-live="polite" data-testid="rate-message">
        {message && <Alert variant={message.ok ? 'success' : 'danger'}>{message.text}</Alert>}
      </div>
      {me.isPending ? (
        <p role="status">Loading your challenges…</p>
      ) : me.isError ? (
        <QueryError what="your solved challenges" error={me.error} onRetry={() => me.refetch()} />
      ) : waiting.length === 0 ? (
        <p>
          You have no solved challenges waiting for a rating. Find one to solve on the{' '}
          <Link to="/compete">Compete</Link> page.
        </p>
      ) : (
        <ul className="list-unstyled d-grid gap-3">
          {waiting.map((c) => (
            <li key={c.id}>
              <RateOne completion={c} onRated={onRated} />
            </li>
          ))}
        </ul>
      )}
    </Container>
  );
}

function RateOne({
  completion,
  onRated,
}: {
  completion: UserCompletion;
  onRated: (challengeId: string, outcome: RatingOutcome) => void;
}) {
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const selectId = `rate-${completion.id}`;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    const outcome = await rateFromRatingPage(completion.id, value);
    setBusy(false);
    onRated(completion.id, outcome);
  }

  return (
    <Card>
      <Card.Body>
        <Card.Title as="h2" className="h5">
          <Link to={`/challenge?id=${encodeURIComponent(completion.id)}`}>{completion.name}</Link>
        </Card.Title>
        <Form onSubmit={(e) => void submit(e)} className="d-flex flex-wrap align-items-end gap-2">
          <Form.Group controlId={selectId}>
            <Form.Label>Rating for {completion.name}</Form.Label>
            <Form.Select value={value} required onChange={(e) => setValue(e.target.value)}>
              <option value="">Choose a rating…</option>
              {VALUES.map((v) => (
                <option key={v} value={String(v)}>
                  {v} {RATING_LABELS[v]}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <Button type="submit" aria-disabled={busy} aria-label={`Rate ${completion.name}`}>
            Rate
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}
