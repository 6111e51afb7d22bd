/**
 * The public live event stream, GET /api/events (Server-Sent Events). Every event carries only
 * what a visitor can already read; a page refreshes the answer it names. No zod here: the web
 * imports these as they are.
 */
import { ROUTES } from './routes.js';

/** GET, text/event-stream. */
export const LIVE_EVENTS_PATH = ROUTES.events.stream.path;

export interface LiveEventData {
  /**
   * An announcement was posted; with `change`, one was edited or deleted (pages refresh, no toast).
   */
  announcement: { _id: string; title: string; change?: 'updated' | 'deleted' };
  /** The first solve of a challenge by a non-admin: the challenge's and the competitor's names. */
  'first-blood': { challenge: string; competitor: string };
  /** The leaderboard changed. */
  leaderboard: Record<string, never>;
  /** The challenge list changed. */
  challenges: Record<string, never>;
  /** The site was switched on or off. */
  site: { activated: boolean };
}
export type LiveEventType = keyof LiveEventData;

export const LIVE_EVENT_TYPES: readonly LiveEventType[] = [
  'announcement',
  'first-blood',
  'leaderboard',
  'challenges',
  'site',
];

/** A browser that reconnects within this time gets every event it missed (Last-Event-ID). */
export const LIVE_EVENT_REPLAY_MS = 10 * 60_000;
/** The stream sends a comment at least this often, so proxies keep it open. */
export const LIVE_EVENT_HEARTBEAT_MS = 25_000;
/** "changed" events of one kind are sent at most this often by a process (coalesced). */
export const LIVE_EVENT_COALESCE_MS = 1000;

/** A refused stream is tried again after this long; the page refreshes its data meanwhile. */
export const LIVE_EVENT_RETRY_MS = 30_000;
/** 429: the per-network limit (one IPv4 address, one IPv6 /64). */
export const TOO_MANY_STREAMS_MESSAGE =
  'Too many open event streams from this network: this page refreshes every 30 seconds instead.';
/** 429: the process's own limit on open streams (sized by its file descriptors). */
export const STREAMS_FULL_MESSAGE =
  'The server holds as many live event streams as it can: this page refreshes every 30 seconds instead.';
