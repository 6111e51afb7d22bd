import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { subscribeLiveEvent } from '../lib/live-events';
import { createQueryClient, queryKeys } from '../lib/query';
import { LiveUpdates } from './LiveUpdates';
import { FakeEventSource, installFakeEventSource } from '../test/fake-event-source';

beforeEach(() => {
  installFakeEventSource();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('live events in the page', () => {
  it('share one EventSource between subscribers, and close it when the last one leaves', () => {
    const a = vi.fn();
    const b = vi.fn();
    const offA = subscribeLiveEvent('leaderboard', a);
    const offB = subscribeLiveEvent('announcement', b);
    expect(FakeEventSource.opened).toHaveLength(1);
    const es = FakeEventSource.opened[0]!;
    expect(es.url).toBe('/api/events');
    es.emit('announcement', { _id: '1', title: 'Hello' });
    expect(b).toHaveBeenCalledWith({ _id: '1', title: 'Hello' });
    expect(a).not.toHaveBeenCalled();
    offA();
    expect(es.closed).toBe(false);
    offB();
    expect(es.closed).toBe(true);
  });

  it('toast announcements and first bloods, and refresh the queries an event names', async () => {
    const client = createQueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const { unmount } = render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <LiveUpdates />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const es = FakeEventSource.opened[0]!;
    act(() => es.emit('announcement', { _id: '4', title: 'The event ends in an hour' }));
    expect(await screen.findByText('The event ends in an hour')).toBeInTheDocument();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.announcements });
    act(() => es.emit('first-blood', { challenge: 'Baby RSA', competitor: 'Team <b>' }));
    expect(await screen.findByText('Team <b> solved Baby RSA first')).toBeInTheDocument();
    // An edit refreshes the list but shows no toast.
    act(() => es.emit('announcement', { _id: '4', title: 'Edited title', change: 'updated' }));
    expect(screen.queryByText('Edited title')).toBeNull();
    // The leaderboard page refreshes itself, calmly (features/leaderboard/use-calm-refresh.ts).
    act(() => es.emit('leaderboard', {}));
    expect(invalidate).not.toHaveBeenCalledWith({ queryKey: queryKeys.leaderboard });
    unmount();
    expect(es.closed).toBe(true);
  });
});
