import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { SYSTEM_ACTOR } from '../audit/audit.service.js';
import {
  claimLease,
  deleteInstance,
  listInstanceChallengeIds,
  listInstances,
  listUnwantedInstances,
  releaseLease,
  setContainer,
  setFailed,
  setRunning,
  setStopFailed,
  type InstanceRow,
} from './instances.repo.js';
import { portsOf, removeInstance } from './instances.service.js';
import { driverOf, launchesOf } from './runtime.js';
import { keepEntriesWarm, mayHaveWarmEntries } from './warm-pool.js';

export const JANITOR_TIMING = {
  /** A sweep this often: an expired instance lives at most this much past its time. */
  intervalMs: 5_000,
  /** The leader's lease: another process takes over this long after the leader stops renewing. */
  leaseMs: 15_000,
};
const LEASE_NAME = 'instance-janitor';
/** Engine errors are logged at most this often (an engine that is down would fill the log). */
const ERROR_LOG_EVERY_MS = 60_000;

/**
 * One sweep (the leader's): stops what expired or must go (challenge deleted or without a
 * definition, competitor removed, hidden or banned), finishes stops a crash interrupted, and
 * compares the engine's containers (by their labels) with the rows: a container without a row is
 * an orphan and removed, a row still 'starting' that no launch here is making is adopted (its
 * container answers: running) or failed (so its team can start again), a running row whose
 * container died is failed.
 */
export async function sweepInstances(ctx: AppContext): Promise<void> {
  const db = ctx.database.db;
  const now = ctx.clock.now().getTime();
  const rows = await listInstances(db);
  const driver = driverOf(ctx);
  const launching = launchesOf(ctx);
  const gone = new Set<number>();
  const stop = async (row: InstanceRow, action: 'instance.stop' | 'instance.expire', reason: string) => {
    gone.add(row.id);
    await removeInstance(ctx, row, { actor: SYSTEM_ACTOR, action, reason });
  };

  const unwanted = new Map((await listUnwantedInstances(db)).map((u) => [u.id, u.reason]));
  // An engine that does not answer fails each call at its deadline; the first failure ends the
  // engine's part of this sweep (the next one tries again), the database's part goes on.
  let engineDown: unknown = null;
  const onEngine = async (call: () => Promise<unknown>): Promise<boolean> => {
    if (engineDown) return false;
    try {
      await call();
      return true;
    } catch (err) {
      engineDown = err;
      return false;
    }
  };
  for (const row of rows) {
    const reason = unwanted.get(row.id);
    if (row.state === 'stopping') {
      // A stop that a crash interrupted (or one under way elsewhere: both steps are idempotent).
      // Not finished while the engine is away: failed (its container goes once it answers).
      gone.add(row.id);
      if (await onEngine(() => driver.remove(row.id, portsOf(row)))) await deleteInstance(db, row.id);
      else await setStopFailed(db, row.id, 'The stop did not finish: the challenge host did not answer.');
    } else if (row.state === 'failed' && (row.expires_at <= now || reason)) {
      gone.add(row.id);
      await deleteInstance(db, row.id);
    } else if (reason) await onEngine(() => stop(row, 'instance.stop', reason));
    else if (row.expires_at <= now && row.state !== 'failed')
      await onEngine(() => stop(row, 'instance.expire', 'expired'));
  }

  const byId = new Map(rows.filter((r) => !gone.has(r.id)).map((r) => [r.id, r]));
  const seen = new Set<number>();
  let containers: Awaited<ReturnType<typeof driver.list>> = [];
  await onEngine(async () => {
    containers = await driver.list();
  });
  for (const c of containers) {
    const row = byId.get(c.instanceId);
    if (launching.has(c.instanceId)) continue;
    if (!row || row.state === 'failed' || (c.expiresAt !== null && c.expiresAt <= now)) {
      await onEngine(() => driver.remove(c.instanceId));
      continue;
    }
    if (c.containerId === null) continue;
    seen.add(row.id);
    if (row.state === 'starting' && row.container_id === null) {
      await setContainer(db, row.id, c.containerId);
      row.container_id = c.containerId;
    }
    if (row.state === 'running' && !c.running) {
      await setFailed(db, row.id, 'The container stopped by itself (it exited or was killed).');
      await onEngine(() => driver.remove(row.id));
    }
  }

  for (const row of byId.values()) {
    if (row.state !== 'starting' || launching.has(row.id)) continue;
    // Made by a launch of another process, or left by one that died mid-start: a container that
    // answers is adopted at once (running, whoever finishes first); one that does not, or none,
    // only once the start timeout has passed (a live launch is done by then). The database decides
    // this even while the engine is away: no row stays 'starting' past the timeout.
    if (seen.has(row.id) && (await answersNow(ctx, row))) await setRunning(db, row.id);
    else if (now - row.created_at >= ctx.config.instances.startTimeoutMs) {
      await setFailed(db, row.id, 'The start was interrupted (the site restarted); press Start again.');
      await onEngine(() => driver.remove(row.id, portsOf(row)));
    }
  }
  // Warm entry points last: what players wait for comes first.
  await onEngine(() => keepEntriesWarm(ctx));
  if (engineDown) throw engineDown;
}

async function answersNow(ctx: AppContext, row: InstanceRow): Promise<boolean> {
  const driver = driverOf(ctx);
  for (const p of portsOf(row)) if (!(await driver.answers(p))) return false;
  return true;
}

/**
 * Whether the engine may hold anything of this site: an instance row, a challenge with one, or
 * warm entry points kept until now (the last instance challenge deleted: they go at this sweep).
 */
async function hasInstanceWork(ctx: AppContext): Promise<boolean> {
  const db = ctx.database.db;
  return (
    (await listInstances(db)).length > 0 ||
    (await listInstanceChallengeIds(db)).size > 0 ||
    mayHaveWarmEntries(ctx)
  );
}

/**
 * Runs the sweep in one process at a time: each process tries to take or keep the lease every
 * interval, and only its holder sweeps. A process that dies leaves the lease to run out; another
 * takes over within `leaseMs`.
 */
export class InstanceJanitor {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private lastErrorAt = 0;
  private readonly holder = randomUUID();

  constructor(private readonly ctx: AppContext) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), JANITOR_TIMING.intervalMs);
    this.timer.unref();
    this.kick();
  }

  /** Sweeps now if this process leads (and no sweep is running here). */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.running ??= this.sweep().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sweep(): Promise<void> {
    try {
      const now = this.ctx.clock.now().getTime();
      // A site without instances writes nothing: no lease is taken while there is nothing to do.
      if (!(await hasInstanceWork(this.ctx))) return;
      if (!(await claimLease(this.ctx.database.db, LEASE_NAME, this.holder, now, JANITOR_TIMING.leaseMs)))
        return;
      await sweepInstances(this.ctx);
    } catch (err) {
      if (Date.now() - this.lastErrorAt >= ERROR_LOG_EVERY_MS) {
        this.lastErrorAt = Date.now();
        this.ctx.log.error(`instance janitor: ${(err as Error).message ?? String(err)}`);
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
    await releaseLease(this.ctx.database.db, LEASE_NAME, this.holder).catch(() => {});
  }
}
