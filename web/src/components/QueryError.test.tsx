import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES } from '@ctf/contract';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from '../lib/api';
import { QueryError, describeFailure } from './QueryError';

describe('QueryError', () => {
  it.each([
    [
      new NetworkError('Failed to fetch'),
      'The server could not be reached. Check your connection, then try again.',
    ],
    [new ApiError(503, 'x'), 'The server had a problem (503). Try again in a moment.'],
    [new ApiError(503, MESSAGES.databaseUnavailable), MESSAGES.databaseUnavailable],
    [new ApiError(401, 'Unauthorized'), 'Unauthorized. Log in again, then come back to this page.'],
    [new ApiError(404, 'Challenge not found.'), 'Challenge not found.'],
    [new Error('?'), 'Something unexpected happened. Try again.'],
  ])('explains %s in words a person can act on', (error, text) => {
    expect(describeFailure(error)).toBe(text);
  });

  it('says what failed and retries on request', async () => {
    let finish: () => void = () => undefined;
    const retry = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(<QueryError what="the leaderboard" error={new NetworkError('x')} onRetry={retry} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The leaderboard could not be loaded.');
    expect(alert).toHaveTextContent('The server could not be reached.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Trying again…' })).toHaveAttribute('aria-disabled', 'true');
    finish();
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeEnabled();
  });
});
