import { MESSAGES } from '@ctf/contract';
import { useState } from 'react';
import { Alert, Button } from 'react-bootstrap';
import { ApiError, NetworkError } from '../lib/api';

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** What went wrong with a request, in words a participant can act on. */
export function describeFailure(error: unknown): string {
  if (error instanceof NetworkError) {
    return 'The server could not be reached. Check your connection, then try again.';
  }
  if (error instanceof ApiError) {
    if (error.status === 401) return `${sentence(error.message)} Log in again, then come back to this page.`;
    // The database outage's own words: why, and that trying again will do.
    if (error.status === 503 && error.message === MESSAGES.databaseUnavailable) return error.message;
    if (error.status >= 500) return `The server had a problem (${error.status}). Try again in a moment.`;
    return sentence(error.message);
  }
  return 'Something unexpected happened. Try again.';
}

interface Props {
  /** What failed to load, e.g. 'the challenges'. */
  what: string;
  error: unknown;
  /** Asks again (a query's refetch). */
  onRetry: () => Promise<unknown>;
  className?: string;
}

/**
 * A failed query: what could not be loaded, why, and a Try again button, instead of a blank or
 * stuck page. It is an alert, so a screen reader announces it when it appears.
 */
export function QueryError({ what, error, onRetry, className }: Props) {
  const [retrying, setRetrying] = useState(false);
  async function retry() {
    if (retrying) return;
    setRetrying(true);
    try {
      await onRetry();
    } finally {
      setRetrying(false);
    }
  }
  return (
    <Alert variant="danger" role="alert" className={className} data-testid="query-error">
      <p className="mb-2">
        <strong>{`${what.charAt(0).toUpperCase()}${what.slice(1)} could not be loaded.`}</strong>{' '}
        {describeFailure(error)}
      </p>
      <Button variant="danger" size="sm" aria-disabled={retrying} onClick={() => void retry()}>
        {retrying ? 'Trying again…' : 'Try again'}
      </Button>
    </Alert>
  );
}
