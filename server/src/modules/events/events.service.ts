import {
  LIVE_EVENT_COALESCE_MS,
  LIVE_EVENT_HEARTBEAT_MS,
  LIVE_EVENT_REPLAY_MS,
  type LiveEventData,
  type LiveEventType,
} from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { Topic } from '../../lib/invalidation.js';
import { activeFreeze } from '../scoreboard/scoreboard.service.js';
import { appendLiveEvent, deleteLiveEventsBefore } from './events.repo.js';
import { LiveEventHub } from './live-hub.js';

const hubs = new WeakMap<AppContext, LiveEventHub>();

/** This process's stream hub (one per app). */
export function liveEventHub(ctx: AppContext): LiveEventHub {
  let hub = hubs.get(ctx);
  if (!hub) {
    hub = new LiveEventHub(
      ctx.database.db,
      {
        heartbeatMs: LIVE_EVENT_HEARTBEAT_MS,
        replayMs: LIVE_EVENT_REPLAY_MS,
        streamsPerAddress: ctx.config.eventStreamsPerAddress,
        now: () => ctx.clock.now().getTime(),
      },
      (err) => ctx.log.error({ err }, 'live events could not be read'),
    );
    hubs.set(ctx, hub);
    ctx.bus.subscribe((topic) => {
      if (topic === 'live-events') void hub!.readNew();
    });
  }
  return hub;
}

const lastPrune = new WeakMap<AppContext, number>();

/**
 * Sends an event to every open stream of every process: one row in the event log, then the bus.
 * Call it after the cause has committed. Resolves once the row is written.
 */
export async function publishLiveEvent<T extends LiveEventType>(
  ctx: AppContext,
  type: T,
  data: LiveEventData[T],
): Promise<void> {
  const at = ctx.clock.now().getTime();
  const prune = at - (lastPrune.get(ctx) ?? 0) > 60_000;
  if (prune) lastPrune.set(ctx, at);
  await ctx.database.transaction(async (trx) => {
    await appendLiveEvent(trx, { type, data: JSON.stringify(data), at });
    // The log only needs the replay window; pruned at most once a minute per process.
    if (prune) await deleteLiveEventsBefore(trx, at - LIVE_EVENT_REPLAY_MS);
  });
  ctx.bus.publish('live-events');
}

/** Which "changed" events a locally published topic means. */
const CHANGES: Partial<Record<Topic, ('leaderboard' | 'challenges')[]>> = {
  'solves-added': ['leaderboard', 'challenges'],
  'unlocks-added': ['leaderboard'],
  solves: ['leaderboard', 'challenges'],
  challenges: ['leaderboard', 'challenges'],
  files: ['challenges'],
  teams: ['leaderboard'],
  users: ['leaderboard'],
};

interface Coalescer {
  lastSent: number;
  timer: NodeJS.Timeout | null;
}
const coalescers = new WeakMap<AppContext, Map<string, Coalescer>>();

/**
 * A "changed" event (leaderboard, challenges), coalesced: at once if none was sent in the last
 * LIVE_EVENT_COALESCE_MS by this process, otherwise once at the end of that time. A burst of
 * correct flags costs one event a second, not one per flag.
 */
export function signalLiveChange(ctx: AppContext, type: 'leaderboard' | 'challenges'): void {
  let byType = coalescers.get(ctx);
  if (!byType) coalescers.set(ctx, (byType = new Map()));
  let c = byType.get(type);
  if (!c) byType.set(type, (c = { lastSent: 0, timer: null }));
  if (c.timer) return;
  const coalescer = c;
  const send = () => {
    coalescer.timer = null;
    coalescer.lastSent = Date.now();
    publishLiveEvent(ctx, type, {}).catch((err: unknown) =>
      ctx.log.error({ err }, `live event '${type}' could not be written`),
    );
  };
  const wait = coalescer.lastSent + LIVE_EVENT_COALESCE_MS - Date.now();
  if (wait <= 0) send();
  else {
    coalescer.timer = setTimeout(send, wait);
    coalescer.timer.unref();
  }
}

/** What app.ts hands the bus: this process's writes become coalesced "changed" events. */
export function liveChangesOf(ctx: () => AppContext): (topic: Topic) => void {
  return (topic) => {
    const types = CHANGES[topic];
    if (!types) return;
    const signal = () => {
      for (const type of types) signalLiveChange(ctx(), type);
    };
    if (!FROZEN_QUIET.has(topic)) return signal();
    // During a freeze a solve or an unlock changes nothing the public sees: an event would only
    // tell visitors that someone scored (the freeze hides that too).
    activeFreeze(ctx()).then(
      (frozenAt) => {
        if (frozenAt === null) signal();
      },
      (err: unknown) => ctx().log.error({ err }, 'the freeze could not be read'),
    );
  };
}

/** Topics whose changes the public boards of a freeze do not show. */
const FROZEN_QUIET: ReadonlySet<Topic> = new Set<Topic>(['solves-added', 'unlocks-added']);

/** Stops the coalescing timers of an app that closes (nothing is sent after close). */
export function stopLiveChanges(ctx: AppContext): void {
  for (const c of coalescers.get(ctx)?.values() ?? []) if (c.timer) clearTimeout(c.timer);
  coalescers.delete(ctx);
}
