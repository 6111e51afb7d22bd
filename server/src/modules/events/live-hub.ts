import type { ServerResponse } from 'node:http';
import { STREAMS_FULL_MESSAGE, TOO_MANY_STREAMS_MESSAGE, type LiveEventType } from '@ctf/contract';
import { addressNetwork } from '../../lib/ip.js';
import type { DB } from '../../db/schema.js';
import { lastLiveEventId, liveEventIdsSince, liveEventsAfter } from './events.repo.js';

/** A slow reader with this much unsent is dropped (its browser reconnects and resumes). */
const MAX_BUFFERED_BYTES = 256 * 1024;

interface KeptEvent {
  id: number;
  at: number;
  /** The event as written on the wire, built once for every stream. */
  frame: string;
}

interface Stream {
  raw: ServerResponse;
  /** The client's network (lib/ip.ts addressNetwork), which the per-address limit counts. */
  network: string;
  /** The last event id this stream has been sent (or was told of by Last-Event-ID). */
  lastId: number;
}

export interface LiveEventHubOptions {
  heartbeatMs: number;
  replayMs: number;
  /** Open streams per network (an IPv4 address, an IPv6 /64); 0 = no limit. */
  streamsPerAddress: number;
  /** Open streams in this process (each holds a file descriptor); 0 = no limit. */
  streamsMax: number;
  now: () => number;
}

/** One SSE frame: id, event name, one line of JSON. */
export function liveEventFrame(id: number, type: string, data: string): string {
  return `id: ${id}\nevent: ${type}\ndata: ${data}\n\n`;
}

/**
 * This process's open event streams and the events of the last replay window, in id order.
 *
 * NOTE: the hub never makes an event: it reads the live_events table after the bus says a row was
 * added (by this process or another), so every process sends the same events with the same ids.
 * Each stream remembers the last id it was sent and never gets an older one, whatever the order
 * of reconnects between processes. One timer sends every stream its heartbeat.
 */
export class LiveEventHub {
  private readonly kept: KeptEvent[] = [];
  private lastSeenId = 0;
  private readonly streams = new Set<Stream>();
  private readonly perAddress = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private reading: Promise<void> | null = null;
  private readAgain = false;
  private closed = false;

  constructor(
    private readonly db: DB,
    private readonly options: LiveEventHubOptions,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Loads the replay window; streams opened before this resolves resume from it too. */
  async start(): Promise<void> {
    // The counter first: a row committed in between is then read with the window.
    const counter = await lastLiveEventId(this.db);
    const rows = await liveEventsAfter(this.db, 0, this.options.now() - this.options.replayMs);
    for (const row of rows) this.keep(row.id, row.type, row.data, row.at);
    this.lastSeenId = Math.max(counter, this.lastSeenId);
    this.timer = setInterval(() => this.beat(), this.options.heartbeatMs);
    this.timer.unref();
  }

  get openStreams(): number {
    return this.streams.size;
  }

  /**
   * Why a client at this address may not open one more stream (null: it may). Counted per
   * network, since one host holds a whole IPv6 /64, and against the process's own limit.
   */
  refusal(address: string): string | null {
    const { streamsMax, streamsPerAddress } = this.options;
    if (streamsMax > 0 && this.streams.size >= streamsMax) return STREAMS_FULL_MESSAGE;
    if (streamsPerAddress > 0 && (this.perAddress.get(addressNetwork(address)) ?? 0) >= streamsPerAddress)
      return TOO_MANY_STREAMS_MESSAGE;
    return null;
  }

  /** Whether an address may open one more stream. */
  admits(address: string): boolean {
    return this.refusal(address) === null;
  }

  /**
   * Takes an SSE response whose headers are sent: replays what the browser missed after
   * lastEventId (within the window), then sends it every new event until it closes.
   */
  open(raw: ServerResponse, address: string, lastEventId: string | undefined): void {
    if (this.closed) {
      raw.end();
      return;
    }
    const resumeFrom =
      lastEventId !== undefined && /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : null;
    const network = addressNetwork(address);
    const stream: Stream = { raw, network, lastId: resumeFrom ?? this.lastSeenId };
    this.streams.add(stream);
    this.perAddress.set(network, (this.perAddress.get(network) ?? 0) + 1);
    raw.once('close', () => this.drop(stream));
    raw.on('error', () => this.drop(stream));
    // The first write flushes the headers, so the browser knows the stream is open.
    raw.write(': open\nretry: 3000\n\n');
    if (resumeFrom === null) return;
    const minAt = this.options.now() - this.options.replayMs;
    for (const e of this.kept) if (e.id > stream.lastId && e.at >= minAt) this.send(stream, e);
    // The browser saw events this process has not read yet (it was connected elsewhere).
    if (resumeFrom > this.lastSeenId) void this.readNew();
  }

  /** The bus said events were added: read them and send them to every stream. */
  readNew(): Promise<void> {
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    this.reading = (async () => {
      try {
        do {
          this.readAgain = false;
          const rows = await liveEventsAfter(this.db, this.lastSeenId, 0);
          for (const row of rows) {
            if (row.id <= this.lastSeenId) continue;
            const e = this.keep(row.id, row.type, row.data, row.at);
            for (const s of this.streams) this.send(s, e);
          }
        } while (this.readAgain && !this.closed);
      } catch (err) {
        this.onError(err);
      } finally {
        this.reading = null;
      }
    })();
    return this.reading;
  }

  /**
   * Rows were removed from the log (a deleted announcement, a hidden or banned competitor's first
   * blood): the replay window keeps only what is still there, so a browser resuming from an
   * earlier id never gets them.
   */
  async dropWithdrawn(): Promise<void> {
    try {
      const still = await liveEventIdsSince(this.db, this.options.now() - this.options.replayMs);
      for (let i = this.kept.length - 1; i >= 0; i -= 1) if (!still.has(this.kept[i]!.id)) this.kept.splice(i, 1);
    } catch (err) {
      this.onError(err);
    }
  }

  /** Drops these events from the replay window now (their rows were deleted). */
  forget(ids: readonly number[]): void {
    if (ids.length === 0) return;
    const gone = new Set(ids);
    for (let i = this.kept.length - 1; i >= 0; i -= 1) if (gone.has(this.kept[i]!.id)) this.kept.splice(i, 1);
  }

  /** Ends every stream (shutdown); browsers reconnect to another process and resume. */
  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    for (const s of this.streams) s.raw.end();
    this.streams.clear();
    this.perAddress.clear();
  }

  private keep(id: number, type: string, data: string, at: number): KeptEvent {
    const e = { id, at, frame: liveEventFrame(id, type as LiveEventType, data) };
    this.kept.push(e);
    this.lastSeenId = Math.max(this.lastSeenId, id);
    return e;
  }

  private send(stream: Stream, e: KeptEvent): void {
    if (e.id <= stream.lastId) return;
    stream.lastId = e.id;
    if (stream.raw.writableLength > MAX_BUFFERED_BYTES) {
      stream.raw.destroy();
      return;
    }
    stream.raw.write(e.frame);
  }

  private drop(stream: Stream): void {
    if (!this.streams.delete(stream)) return;
    const n = (this.perAddress.get(stream.network) ?? 1) - 1;
    if (n > 0) this.perAddress.set(stream.network, n);
    else this.perAddress.delete(stream.network);
  }

  /** The one timer: a comment line to every stream, and events older than the window forgotten. */
  private beat(): void {
    for (const s of this.streams) s.raw.write(':\n\n');
    const minAt = this.options.now() - this.options.replayMs;
    let n = 0;
    while (n < this.kept.length && this.kept[n]!.at < minAt) n++;
    if (n > 0) this.kept.splice(0, n);
  }
}
