import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIVE_EVENT_RETRY_MS } from '@ctf/contract';
import { FakeEventSource, installFakeEventSource } from '../test/fake-event-source';
import { subscribeLiveEvent, subscribeLiveReopen } from './live-events';

beforeEach(() => {
  vi.useFakeTimers();
  installFakeEventSource();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The browser gives a stream up (429, or the server gone): CLOSED, then an error event. */
function refuse(es: FakeEventSource): void {
  es.readyState = FakeEventSource.CLOSED;
  es.emit('error', {});
}

describe('the live stream refused (issue 29: 429 past the stream limits)', () => {
  it('falls back to polling: the page refreshes every 30 s and tries the stream again, until it is taken', () => {
    const refresh = vi.fn();
    const offEvent = subscribeLiveEvent('announcement', () => {});
    const offReopen = subscribeLiveReopen(refresh);
    expect(FakeEventSource.opened).toHaveLength(1);
    for (let round = 1; round <= 3; round += 1) {
      refuse(FakeEventSource.opened[round - 1]!);
      vi.advanceTimersByTime(LIVE_EVENT_RETRY_MS - 1);
      expect(refresh).toHaveBeenCalledTimes(round - 1);
      vi.advanceTimersByTime(1);
      expect(refresh).toHaveBeenCalledTimes(round);
      expect(FakeEventSource.opened).toHaveLength(round + 1);
    }
    // Taken at last: no more refreshes while it stays open.
    vi.advanceTimersByTime(5 * LIVE_EVENT_RETRY_MS);
    expect(refresh).toHaveBeenCalledTimes(3);
    offEvent();
    offReopen();
  });
});
