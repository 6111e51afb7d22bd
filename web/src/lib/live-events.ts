import {
  LIVE_EVENTS_PATH,
  LIVE_EVENT_RETRY_MS,
  LIVE_EVENT_TYPES,
  type LiveEventData,
  type LiveEventType,
} from '@ctf/contract';

type Handler<T extends LiveEventType> = (data: LiveEventData[T]) => void;

/**
 * After the stream failed for good (429: too many streams from this network or on the server;
 * the server gone), it is opened again this much later, and the page refreshes what it shows each
 * time: it polls until the stream is taken again.
 */
const REOPEN_AFTER_MS = LIVE_EVENT_RETRY_MS;

let source: EventSource | null = null;
let reopenTimer: ReturnType<typeof setTimeout> | null = null;
const handlers = new Map<LiveEventType, Set<Handler<never>>>();
const reopenHandlers = new Set<() => void>();

function handlerCount(): number {
  let n = reopenHandlers.size;
  for (const set of handlers.values()) n += set.size;
  return n;
}

function dispatch(type: LiveEventType, message: MessageEvent<string>): void {
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch {
    return;
  }
  for (const h of handlers.get(type) ?? []) (h as Handler<LiveEventType>)(data as never);
}

/**
 * One EventSource for the whole page. The browser reconnects it by itself after a drop and sends
 * Last-Event-ID, so the server replays what was missed. When it gives up (an answer other than the
 * stream, such as 429), it is opened again later, and the reopen handlers refresh what may have
 * changed meanwhile. Without EventSource (old browsers, tests) nothing happens: pages work as
 * they do without the stream, with their own fetches.
 */
function ensureOpen(): void {
  if (source || reopenTimer || typeof EventSource === 'undefined') return;
  const es = new EventSource(LIVE_EVENTS_PATH);
  source = es;
  for (const type of LIVE_EVENT_TYPES) {
    es.addEventListener(type, (m) => dispatch(type, m as MessageEvent<string>));
  }
  es.addEventListener('error', () => {
    if (es.readyState !== EventSource.CLOSED) return;
    source = null;
    reopenTimer = setTimeout(() => {
      reopenTimer = null;
      if (handlerCount() === 0) return;
      ensureOpen();
      for (const h of reopenHandlers) h();
    }, REOPEN_AFTER_MS);
  });
}

function closeIfUnused(): void {
  if (handlerCount() > 0) return;
  source?.close();
  source = null;
  if (reopenTimer) clearTimeout(reopenTimer);
  reopenTimer = null;
}

/** Calls handler with each event of this type from GET /api/events; answers the unsubscribe. */
export function subscribeLiveEvent<T extends LiveEventType>(type: T, handler: Handler<T>): () => void {
  let set = handlers.get(type);
  if (!set) handlers.set(type, (set = new Set()));
  set.add(handler as Handler<never>);
  ensureOpen();
  return () => {
    set.delete(handler as Handler<never>);
    closeIfUnused();
  };
}

/** Called when the stream is opened again after it had failed: events may have been missed. */
export function subscribeLiveReopen(handler: () => void): () => void {
  reopenHandlers.add(handler);
  ensureOpen();
  return () => {
    reopenHandlers.delete(handler);
    closeIfUnused();
  };
}
