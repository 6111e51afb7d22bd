import { STREAMS_FULL_MESSAGE, TOO_MANY_STREAMS_MESSAGE } from '@ctf/contract';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DB } from '../../db/schema.js';
import { LiveEventHub } from './live-hub.js';

/** A response that records what is written to it. */
class FakeResponse extends EventEmitter {
  written: string[] = [];
  writableLength = 0;
  write(chunk: string): boolean {
    this.written.push(chunk);
    return true;
  }
  end(): void {
    this.emit('close');
  }
  destroy(): void {
    this.emit('close');
  }
}

const emptyDb = {
  selectFrom: () => {
    const q = {
      select: () => q,
      where: () => q,
      orderBy: () => q,
      execute: async () => [],
      executeTakeFirst: async () => ({ last_id: 0 }),
    };
    return q;
  },
} as unknown as DB;

describe('LiveEventHub', () => {
  let hub: LiveEventHub;
  afterEach(() => {
    hub.close();
    vi.restoreAllMocks();
  });

  it('sends every stream its heartbeat from one timer, however many streams are open', async () => {
    const intervals = vi.spyOn(globalThis, 'setInterval');
    hub = new LiveEventHub(
      emptyDb,
      { heartbeatMs: 20, replayMs: 600_000, streamsPerAddress: 0, streamsMax: 0, now: Date.now },
      () => {},
    );
    await hub.start();
    const streams = Array.from({ length: 50 }, () => new FakeResponse());
    for (const s of streams) hub.open(s as unknown as ServerResponse, '127.0.0.1', undefined);
    await vi.waitFor(() => {
      for (const s of streams)
        expect(s.written.filter((w) => w === ':\n\n').length).toBeGreaterThanOrEqual(2);
    });
    expect(intervals).toHaveBeenCalledTimes(1);
    expect(hub.openStreams).toBe(50);
    streams[0]!.end();
    expect(hub.openStreams).toBe(49);
  });

  it('counts streams per address (0 = no limit) and frees a place when one closes', async () => {
    hub = new LiveEventHub(
      emptyDb,
      { heartbeatMs: 60_000, replayMs: 600_000, streamsPerAddress: 2, streamsMax: 0, now: Date.now },
      () => {},
    );
    await hub.start();
    const a = new FakeResponse();
    hub.open(a as unknown as ServerResponse, '10.0.0.1', undefined);
    hub.open(new FakeResponse() as unknown as ServerResponse, '10.0.0.1', undefined);
    expect(hub.admits('10.0.0.1')).toBe(false);
    expect(hub.admits('10.0.0.2')).toBe(true);
    a.end();
    expect(hub.admits('10.0.0.1')).toBe(true);
  });
  it('counts an IPv6 /64 and an IPv4-mapped address as one network, and holds a global limit', async () => {
    hub = new LiveEventHub(
      emptyDb,
      { heartbeatMs: 60_000, replayMs: 600_000, streamsPerAddress: 2, streamsMax: 5, now: Date.now },
      () => {},
    );
    await hub.start();
    const open = (address: string) =>
      hub.open(new FakeResponse() as unknown as ServerResponse, address, undefined);
    open('2001:db8:0:1::a');
    open('2001:db8:0:1:ffff::b');
    expect(hub.refusal('2001:db8:0:1::c')).toBe(TOO_MANY_STREAMS_MESSAGE);
    expect(hub.refusal('2001:db8:0:2::c')).toBeNull();
    open('7.7.7.7');
    open('::ffff:7.7.7.7');
    expect(hub.refusal('7.7.7.7')).toBe(TOO_MANY_STREAMS_MESSAGE);
    open('10.0.0.1');
    // Five open in all: every address is refused now, with the process's own message.
    expect(hub.refusal('10.0.0.2')).toBe(STREAMS_FULL_MESSAGE);
    expect(hub.openStreams).toBe(5);
  });
});
