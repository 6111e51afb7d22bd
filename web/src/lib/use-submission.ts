import { useState, type FormEvent } from 'react';
import { NetworkError } from './api';

/** What a form shows when the server could not be reached at all (the request never answered). */
export const UNREACHABLE = 'The server could not be reached. Try again.';

/**
 * The state every small form of the sign-in pages keeps: busy while one request runs, the error or
 * notice it ended with. `submit(work)` clears both, runs `work`, and turns a thrown failure into
 * the unreachable message or the form's own `fallback` words.
 */
export function useSubmission(fallback: string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');

  function clear() {
    setError('');
    setNotice('');
  }

  async function submit(event: FormEvent, work: () => Promise<void>) {
    event.preventDefault();
    setBusy(true);
    clear();
    try {
      await work();
    } catch (err) {
      setError(err instanceof NetworkError ? UNREACHABLE : fallback);
    } finally {
      setBusy(false);
    }
  }

  return { busy, error, notice, setError, setNotice, clear, submit };
}
