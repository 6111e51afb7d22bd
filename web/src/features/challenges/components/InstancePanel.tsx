import { instanceAddress, type InstanceState } from '@ctf/contract';
import { useEffect, useState } from 'react';
import { Alert, Button, Card, Spinner } from 'react-bootstrap';
import { useHydrated } from '../../../lib/hydration';
import { useInstance, useInstanceAction } from '../api/instance';

/** "12:05" left until `expiresAt` (ISO), from `now` (ms); "0:00" once it has passed. */
export function timeLeft(expiresAt: string, now: number): string {
  const s = Math.max(0, Math.floor((Date.parse(expiresAt) - now) / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/**
 * The time left by the reader's clock. A page the server rendered shows it once hydrated (the
 * server's clock is not the reader's); until then a no-break space holds the line's height.
 */
function Countdown({ expiresAt }: { expiresAt: string }) {
  const hydrated = useHydrated();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return <span data-testid="instance-time-left">{hydrated ? timeLeft(expiresAt, now) : '\u00a0'}</span>;
}

function Addresses({ state }: { state: InstanceState }) {
  return (
    <ul className="list-unstyled mb-2" data-testid="instance-addresses">
      {state.ports.map((p) => (
        <li key={p.port}>
          {p.protocol === 'http' && p.url ? (
            <a href={p.url} target="_blank" rel="noopener noreferrer">
              {p.url}
            </a>
          ) : (
            <code className="user-select-all">{instanceAddress(state.host, p.port, p.protocol)}</code>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * The team's own container of this challenge (issue 30): Start, watch it come up (until it
 * answers on its port), its address and time left, Renew and Stop. Teammates share it.
 */
export function InstancePanel({ challengeId }: { challengeId: string }) {
  const instance = useInstance(challengeId);
  const action = useInstanceAction(challengeId);
  const busy = action.isPending;
  const view = instance.data;
  const run = (a: 'start' | 'renew' | 'stop') => {
    if (!busy) action.mutate(a);
  };

  return (
    <Card as="section" className="my-3" aria-labelledby="instance-heading" data-testid="instance-panel">
      <Card.Body>
        <h2 id="instance-heading" className="h5">
          Your instance
        </h2>
        <p className="mb-2">
          This challenge runs a container of its own for your team, with your team&apos;s flag inside.
        </p>
        {action.isError && (
          <Alert variant="danger" data-testid="instance-error">
            {action.error.message}
          </Alert>
        )}
        {instance.isPending ? (
          <p role="status">Loading your instance…</p>
        ) : instance.isError ? (
          <Alert variant="danger">
            Your instance could not be read.{' '}
            <Button variant="link" className="p-0 align-baseline" onClick={() => void instance.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : view?.kind === 'live' && view.state.status === 'starting' ? (
          <p role="status" data-testid="instance-starting">
            <Spinner animation="border" size="sm" aria-hidden="true" className="me-2" />
            Starting your instance: waiting until it answers…
          </p>
        ) : view?.kind === 'live' ? (
          <div data-testid="instance-running">
            <p className="mb-1">Connect with:</p>
            <Addresses state={view.state} />
            <p className="mb-2">
              Time left: <Countdown expiresAt={view.state.expiresAt} />
            </p>
            <Button
              variant="outline-primary"
              className="me-2"
              aria-disabled={busy}
              onClick={() => run('renew')}
            >
              Renew
            </Button>
            <Button variant="outline-danger" aria-disabled={busy} onClick={() => run('stop')}>
              Stop
            </Button>
          </div>
        ) : (
          <>
            {view?.kind === 'failed' && (
              <Alert variant="warning" data-testid="instance-failed">
                {view.message}
              </Alert>
            )}
            <Button aria-disabled={busy} onClick={() => run('start')} data-testid="instance-start">
              Start instance
            </Button>
          </>
        )}
      </Card.Body>
    </Card>
  );
}
