import type { InstanceDefinition } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { DomainError } from '../../lib/errors.js';
import {
  InstanceStartError,
  PORT_ATTEMPTS,
  PortTakenError,
  type InstanceDriver,
  type InstanceSpec,
} from './driver.js';
import { findInstanceById, listUsedPorts, setContainer, setFailed, setRunning } from './instances.repo.js';
import { imageAllowed } from './policy.js';
import { adoptPorts, movePorts, type StoredPort } from './ports.js';
import { driverOf, launchesOf } from './runtime.js';
import { denyHostsOf, warmKeyOf } from './warm-entries.js';

export type { StoredPort } from './ports.js';

const PROBE_EVERY_MS = 250;

/**
 * A launch gives up when its ports have not all answered within three quarters of the start
 * timeout (INSTANCE_START_TIMEOUT_SECONDS); the janitor treats a row still 'starting' after the
 * whole timeout (longer than any launch) as left by a process that died.
 */
export const answerDeadlineMs = (ctx: AppContext) => Math.round(ctx.config.instances.startTimeoutMs * 0.75);

export interface LaunchPlan {
  instanceId: number;
  challengeId: number;
  competitor: string;
  definition: InstanceDefinition;
  /** The competitor's flag, set as FLAG (null: the challenge has only regex flags). */
  flag: string | null;
  ports: StoredPort[];
  /** ms: the latest the instance may live (the containers' expiry label). */
  expiresAt: number;
  /** The challenge host's name: the egress proxy refuses its addresses too. */
  challengeHost: string;
}

/** Makes the container off the request's path; the row says how it went. */
export function launchInstance(ctx: AppContext, plan: LaunchPlan): void {
  const launching = launchesOf(ctx);
  const run = launch(ctx, plan).finally(() => launching.delete(plan.instanceId));
  launching.set(plan.instanceId, run);
}

async function launch(ctx: AppContext, plan: LaunchPlan): Promise<void> {
  const db = ctx.database.db;
  const driver = driverOf(ctx);
  const d = plan.definition;
  const policy = ctx.config.instances.policy;
  let spec: InstanceSpec | null = null;
  try {
    if (!imageAllowed(d.image, policy))
      throw new InstanceStartError(
        `Image '${d.image}' is not under an allowed image prefix (INSTANCE_IMAGE_PREFIXES: ${policy.imagePrefixes.join(', ')})`,
      );
    spec = {
      instanceId: plan.instanceId,
      image: d.image,
      env: { ...d.env, ...(plan.flag === null ? {} : { FLAG: plan.flag }) },
      ports: plan.ports,
      memoryMb: d.memoryMb,
      cpus: d.cpus,
      pids: d.pids,
      capabilities: d.capabilities ?? [],
      writableRoot: d.writableRoot === true,
      egress: d.egress === true,
      denyHosts: denyHostsOf(plan.challengeHost, ctx.config.instances.probeHost),
      runtime: policy.runtime,
      challengeId: plan.challengeId,
      competitor: plan.competitor,
      expiresAt: plan.expiresAt,
    };
    const started = (await startWarm(ctx, driver, spec)) ?? (await startCold(ctx, driver, spec));
    if (!started) return;
    // Stopped (or expired) while it was being made: the container must not stay.
    if (!(await setContainer(db, plan.instanceId, started.containerId))) {
      await driver.remove(plan.instanceId);
      return;
    }
    if (await untilAnswering(ctx, driver, { instanceId: plan.instanceId, ports: spec.ports }))
      await setRunning(db, plan.instanceId);
  } catch (err) {
    const message =
      err instanceof InstanceStartError
        ? err.message
        : `The start failed: ${(err as Error).message ?? String(err)}`;
    ctx.log.warn(`instance ${plan.instanceId}: ${message}`);
    await setFailed(db, plan.instanceId, message).catch(() => {});
    await driver.remove(plan.instanceId, spec?.ports ?? plan.ports).catch(() => {});
  }
}

/** Warm entry points a start of this process is taking now (the others look further). */
const taking = new Set<string>();

/**
 * Behind a warm entry point of the instance's shape, when one is free: its host ports become the
 * instance's (claimed in the database: the claim decides between two starters), then only the
 * challenge's container is made. Null: none was free.
 */
async function startWarm(
  ctx: AppContext,
  driver: InstanceDriver,
  spec: InstanceSpec,
): Promise<{ containerId: string } | null> {
  if (ctx.config.instances.warmEntries === 0) return null;
  const [listed, used] = await Promise.all([
    driver.listWarm(warmKeyOf(spec, ctx.config.instances.entryImage)),
    listUsedPorts(ctx.database.db),
  ]);
  for (const warm of listed) {
    if (taking.has(warm.name) || warm.ports.some((p) => used.has(p.hostPort))) continue;
    taking.add(warm.name);
    try {
      if (!(await adoptPorts(ctx, spec.instanceId, warm.ports))) continue;
      spec.ports = warm.ports;
      return await driver.startWarm(spec, warm);
    } finally {
      taking.delete(warm.name);
    }
  }
  return null;
}

/**
 * The instance's own network and entry point. A host port that another program holds (the engine
 * says so) sends the start to other random ports of the range, at most PORT_ATTEMPTS times in all;
 * null when the row stopped being 'starting' meanwhile.
 */
async function startCold(
  ctx: AppContext,
  driver: InstanceDriver,
  spec: InstanceSpec,
): Promise<{ containerId: string } | null> {
  const avoid = new Set<number>();
  for (let attempt = 1; ; attempt++) {
    try {
      return await driver.start(spec);
    } catch (err) {
      if (!(err instanceof PortTakenError) || attempt >= PORT_ATTEMPTS) throw err;
      for (const p of err.hostPorts) avoid.add(p);
      ctx.log.info(`instance ${spec.instanceId}: ${err.message}; moving to other ports`);
      let moved;
      try {
        moved = await movePorts(ctx, spec.instanceId, spec.ports, avoid);
      } catch (moveErr) {
        if (moveErr instanceof DomainError)
          throw new InstanceStartError(`${err.message} (${moveErr.message})`);
        throw moveErr;
      }
      if (!moved) return null;
      spec.ports = moved;
    }
  }
}

/**
 * Waits until every published port answers. False when the row stopped being 'starting' meanwhile
 * (stopped); throws InstanceStartError when the time is up.
 */
export async function untilAnswering(
  ctx: AppContext,
  driver: InstanceDriver,
  plan: Pick<LaunchPlan, 'instanceId' | 'ports'>,
): Promise<boolean> {
  const deadline = Date.now() + answerDeadlineMs(ctx);
  const waiting = new Set(plan.ports);
  for (;;) {
    for (const p of [...waiting]) if (await driver.answers(p)) waiting.delete(p);
    if (waiting.size === 0) return true;
    const row = await findInstanceById(ctx.database.db, plan.instanceId);
    if (!row || row.state !== 'starting') return false;
    if (Date.now() >= deadline) {
      const p = [...waiting][0]!;
      throw new InstanceStartError(
        `The container did not answer on its port ${p.port} (host port ${p.hostPort}) within ${Math.round(answerDeadlineMs(ctx) / 1000)} s`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
  }
}
