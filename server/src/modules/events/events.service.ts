import {
  LIVE_EVENT_COALESCE_MS,
  LIVE_EVENT_HEARTBEAT_MS,
  LIVE_EVENT_REPLAY_MS,
  type LiveEventData,
  type LiveEventType,
} from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/schema.js';
import { LISTENER_PRIORITY } from '../../lib/domain-events.js';
import type { Topic } from '../../lib/invalidation.js';
import { activeFreeze, readEventState } from '../event-state/event-state.service.js';
import {
  appendLiveEvent,
  deleteLiveEvents,
  deleteLiveEventsBefore,
  liveEventsOfType,
} from './events.repo.js';
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
        streamsMax: ctx.config.eventStreamsMax,
        now: () => ctx.clock.now().getTime(),
      },
      (err) => ctx.log.error({ err }, 'live events could not be read'),
    );
    hubs.set(ctx, hub);
    ctx.bus.subscribe((topic) => {
      if (topic === 'live-events') void hub!.readNew();
      else if (topic === 'live-events-withdrawn') void hub!.dropWithdrawn();
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

/**
 * Which "changed" events a locally published topic means. A correct flag and a hint unlock are
 * told through the port instead ('flag.correct', 'hint.unlocked', 'award.changed'): they keep quiet during a freeze.
 */
const CHANGES: Partial<Record<Topic, ('leaderboard' | 'challenges')[]>> = {
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
    for (const type of CHANGES[topic] ?? []) signalLiveChange(ctx(), type);
  };
}

/**
 * "Changed" events for what a freeze hides: during one a solve or an unlock changes nothing the
 * public sees, and an event would only tell visitors that someone scored.
 */
function signalUnlessFrozen(ctx: AppContext, types: readonly ('leaderboard' | 'challenges')[]): void {
  activeFreeze(ctx).then(
    (frozenAt) => {
      if (frozenAt === null) for (const type of types) signalLiveChange(ctx, type);
    },
    (err: unknown) => ctx.log.error({ err }, 'the freeze could not be read'),
  );
}

/**
 * The live stream listens to what the modules announce (the port on the app context) and turns
 * it into events on every open page. After the caches and the outbox (LISTENER_PRIORITY).
 */
export function subscribeLiveStream(ctx: AppContext): void {
  const on = ctx.domainEvents;
  const priority = LISTENER_PRIORITY.stream;
  on.on('flag.correct', () => signalUnlessFrozen(ctx, ['leaderboard', 'challenges']), { priority });
  on.on('hint.unlocked', () => signalUnlessFrozen(ctx, ['leaderboard']), { priority });
  on.on('award.changed', () => signalUnlessFrozen(ctx, ['leaderboard']), { priority });
  on.on('challenges.released', () => signalLiveChange(ctx, 'challenges'), { priority });
  on.on('first-blood', (blood) => publishLiveEvent(ctx, 'first-blood', blood), { priority });
  on.on('site.switched', ({ activated }) => publishLiveEvent(ctx, 'site', { activated }), { priority });
  on.on('site.switched-on-time', ({ activated }) => publishLiveEvent(ctx, 'site', { activated }), {
    priority,
  });
  // Read after the caches' handler dropped the kept state: the switch as saved now.
  on.on(
    'settings.saved',
    async () => publishLiveEvent(ctx, 'site', { activated: (await readEventState(ctx)).activated }),
    { priority },
  );
  on.on(
    'announcement.posted',
    ({ id, title }) => publishLiveEvent(ctx, 'announcement', { _id: String(id), title }),
    { priority },
  );
  on.on(
    'announcement.updated',
    ({ id, title }) => publishLiveEvent(ctx, 'announcement', { _id: String(id), title, change: 'updated' }),
    { priority },
  );
  // A deleted announcement is never replayed: its events leave the log with it (in its
  // transaction), and the one that tells pages to drop it carries no title.
  on.on(
    'announcement.deleted',
    ({ id }, trx) => withdrawLiveEvents(ctx, trx, 'announcement', (d) => d._id === String(id)),
    {
      phase: 'transaction',
    },
  );
  on.on(
    'announcement.deleted',
    async ({ id }) => {
      ctx.bus.publish('live-events-withdrawn');
      await publishLiveEvent(ctx, 'announcement', { _id: String(id), title: '', change: 'deleted' });
    },
    { priority },
  );
  // A competitor hidden or banned: its first bloods are not replayed either.
  on.on(
    'competitor.withdrawn',
    ({ name }, trx) => withdrawLiveEvents(ctx, trx, 'first-blood', (d) => d.competitor === name),
    { phase: 'transaction' },
  );
  on.on('competitor.withdrawn', () => ctx.bus.publish('live-events-withdrawn'), { priority });
}

/** Removes the events of a type in the replay window whose data matches. */
async function withdrawLiveEvents<T extends LiveEventType>(
  ctx: AppContext,
  trx: Executor,
  type: T,
  matches: (data: LiveEventData[T]) => boolean,
): Promise<void> {
  const rows = await liveEventsOfType(trx, type, ctx.clock.now().getTime() - LIVE_EVENT_REPLAY_MS);
  const ids = rows.filter((r) => matches(JSON.parse(r.data) as LiveEventData[T])).map((r) => r.id);
  await deleteLiveEvents(trx, ids);
  // This process forgets them at once, so no stream opened before the answer replays them (the
  // others drop them on 'live-events-withdrawn'). NOTE: were the cause rolled back, they would
  // only miss from this process's replay, never be sent anywhere they should not.
  liveEventHub(ctx).forget(ids);
}

/** Stops the coalescing timers of an app that closes (nothing is sent after close). */
export function stopLiveChanges(ctx: AppContext): void {
  for (const c of coalescers.get(ctx)?.values() ?? []) if (c.timer) clearTimeout(c.timer);
  coalescers.delete(ctx);
}
