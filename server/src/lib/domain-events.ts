import type { Executor } from '../db/schema.js';

/**
 * What a module tells the rest of the server, by name, with its payload. The module where it
 * happens emits it; the modules that react (the live stream, the Discord outbox, the caches)
 * register handlers. Nobody imports whoever listens (docs/architecture.md, "The port").
 */
export interface DomainEventMap {
  /** A correct flag was recorded (not a practice solve). */
  'flag.correct': { userId: number; challengeId: number };
  /** A competitor unlocked a hint (its cost leaves their score). */
  'hint.unlocked': { hintId: number; userId: number };
  /** An admin gave or deleted an award (issue 31): scores moved. */
  'award.changed': { awardId: number };
  /** A challenge's first blood is announced: at its solve, or when a freeze that held it lifts. */
  'first-blood': { challenge: string; competitor: string };
  /** A scheduled challenge's release time came: the public list turned over by itself. */
  'challenges.released': { at: number };
  /** The admin's site switch was set; `changed`: it was not already in that position. */
  'site.switched': { activated: boolean; changed: boolean };
  /** A timed open or close (the event's start or end time) was applied. */
  'site.switched-on-time': { activated: boolean };
  /** The event's settings (or its logo) were saved. */
  'settings.saved': Record<string, never>;
  /** The scoreboard's freeze time was set, moved or lifted (null). */
  'freeze.changed': { freezeAt: string | null };
  'announcement.posted': { id: number; title: string; body: string };
  'announcement.updated': { id: number; title: string };
  'announcement.deleted': { id: number; title: string };
  /**
   * A competitor left every public view (hidden or banned, emitted in the moderation's
   * transaction): by `name`, a team's name or a teamless user's username, as first bloods name it.
   */
  'competitor.withdrawn': { name: string };
  /**
   * A user's competitor changed (emitted in the team change's transaction): they made or joined a
   * team (`left` is their solo self), or left or were removed from one (`left` is the team).
   */
  'membership.changed': { userId: number; left: { kind: 'team' | 'user'; id: number } };
}

export type DomainEventName = keyof DomainEventMap;

/**
 * When a handler runs:
 * - 'transaction': inside the cause's transaction, with it, before the commit: what it writes
 *   commits or rolls back with the cause (the Discord outbox: exactly once). Its errors roll the
 *   cause back.
 * - 'committed': after the commit. Its errors are logged: the cause stands.
 */
export type DomainEventPhase = 'transaction' | 'committed';

/**
 * Handlers run in ascending priority; these are the ones in use, in the order an event needs
 * them: the caches first (what later handlers read is then current), the outbox, the stream.
 */
export const LISTENER_PRIORITY = { caches: -20, outbox: -10, stream: 0 } as const;

type Payload<N extends DomainEventName> = DomainEventMap[N];
type CommittedHandler<N extends DomainEventName> = (payload: Payload<N>) => unknown;
type TransactionHandler<N extends DomainEventName> = (payload: Payload<N>, trx: Executor) => unknown;

interface Registration {
  priority: number;
  phase: DomainEventPhase;
  handler: (payload: never, trx: Executor) => unknown;
}

/**
 * The one publish port on the AppContext (the model: immich's event repository, a typed map
 * from event name to payload). In-process: what other processes must learn travels as rows
 * (live events, the outbox) and bus topics, written by the handlers here.
 */
export class DomainEvents {
  private readonly handlers = new Map<DomainEventName, Registration[]>();

  constructor(private readonly onError: (err: unknown, name: DomainEventName) => void) {}

  /** Registers a handler (default: after the commit, priority 0); answers the unregistration. */
  on<N extends DomainEventName>(
    name: N,
    handler: CommittedHandler<N>,
    options?: { priority?: number; phase?: 'committed' },
  ): () => void;
  on<N extends DomainEventName>(
    name: N,
    handler: TransactionHandler<N>,
    options: { priority?: number; phase: 'transaction' },
  ): () => void;
  on<N extends DomainEventName>(
    name: N,
    handler: TransactionHandler<N>,
    options: { priority?: number; phase?: DomainEventPhase } = {},
  ): () => void {
    const registration: Registration = {
      priority: options.priority ?? 0,
      phase: options.phase ?? 'committed',
      handler: handler as Registration['handler'],
    };
    // Sorted once here, stably: equal priorities run in the order they were registered.
    const list = [...(this.handlers.get(name) ?? []), registration].sort((a, b) => a.priority - b.priority);
    this.handlers.set(name, list);
    return () => {
      this.handlers.set(
        name,
        (this.handlers.get(name) ?? []).filter((r) => r !== registration),
      );
    };
  }

  /**
   * Inside the cause's transaction: runs the 'transaction' handlers with it, one after another.
   * The cause emits the same event with emit() after its commit (a handler has one phase).
   */
  async emitInTransaction<N extends DomainEventName>(
    trx: Executor,
    name: N,
    payload: Payload<N>,
  ): Promise<void> {
    for (const r of this.handlers.get(name) ?? []) {
      if (r.phase === 'transaction') await (r.handler as TransactionHandler<N>)(payload, trx);
    }
  }

  /**
   * After the cause committed: runs the 'committed' handlers one after another, in priority
   * order. Never rejects: a handler's failure is logged and the next one still runs.
   */
  async emit<N extends DomainEventName>(name: N, payload: Payload<N>): Promise<void> {
    const list = this.handlers.get(name);
    if (!list) return;
    for (const r of list) {
      if (r.phase !== 'committed') continue;
      try {
        await (r.handler as CommittedHandler<N>)(payload);
      } catch (err) {
        this.onError(err, name);
      }
    }
  }
}
