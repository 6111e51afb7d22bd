import { LEADERBOARD_REFRESH } from '@ctf/contract';
import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { subscribeBoardChanges } from './api/leaderboard';
import { FALLBACK_CHECK_MS, useCalmRefresh } from './use-calm-refresh';
import { FakeEventSource, installFakeEventSource } from '../../test/fake-event-source';

let visibility: DocumentVisibilityState = 'visible';
function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  installFakeEventSource();
  visibility = 'visible';
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
  // Half the jitter every time, so the timings below are exact.
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function Board({ refresh }: { refresh: () => void }) {
  useCalmRefresh(refresh, subscribeBoardChanges);
  return null;
}

const WORST_DELAY = LEADERBOARD_REFRESH.minIntervalMs + LEADERBOARD_REFRESH.jitterMs;

describe('useCalmRefresh on the live stream', () => {
  it('refreshes calmly on leaderboard events: at most once per 5 s, none while hidden', () => {
    const refresh = vi.fn();
    const { unmount } = render(<Board refresh={refresh} />);
    const es = FakeEventSource.opened[0]!;
    expect(es.url).toBe('/api/events');

    act(() => es.emit('leaderboard', {}));
    act(() => void vi.advanceTimersByTime(LEADERBOARD_REFRESH.jitterMs));
    expect(refresh).toHaveBeenCalledTimes(1);

    // A burst of changes within the next 5 s: one more refresh, not before 5 s have passed.
    for (let i = 0; i < 10; i++) {
      act(() => es.emit('leaderboard', {}));
      act(() => void vi.advanceTimersByTime(300));
    }
    expect(refresh).toHaveBeenCalledTimes(1);
    act(() => void vi.advanceTimersByTime(WORST_DELAY));
    expect(refresh).toHaveBeenCalledTimes(2);

    // Hidden: changes (and the minute check) wait for the tab to show again.
    setVisibility('hidden');
    act(() => es.emit('leaderboard', {}));
    act(() => void vi.advanceTimersByTime(2 * FALLBACK_CHECK_MS));
    expect(refresh).toHaveBeenCalledTimes(2);
    setVisibility('visible');
    act(() => void vi.advanceTimersByTime(LEADERBOARD_REFRESH.jitterMs));
    expect(refresh).toHaveBeenCalledTimes(3);

    unmount();
    expect(es.closed).toBe(true);
    act(() => void vi.advanceTimersByTime(2 * FALLBACK_CHECK_MS));
    expect(refresh).toHaveBeenCalledTimes(3);
  });

  it('checks once a minute without any event', () => {
    const refresh = vi.fn();
    render(<Board refresh={refresh} />);
    act(() => void vi.advanceTimersByTime(FALLBACK_CHECK_MS + LEADERBOARD_REFRESH.jitterMs));
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});
