import type { InstanceDefinition, InstanceProtocol } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { InstanceStartError, type InstanceDriver } from './driver.js';
import { findInstanceById, setContainer, setFailed, setRunning } from './instances.repo.js';
import { imageAllowed } from './policy.js';
import { driverOf, launchesOf } from './runtime.js';

const PROBE_EVERY_MS = 250;

/** A published port as stored on the row: the container's port and the host's. */
export interface StoredPort {
  port: number;
  protocol: InstanceProtocol;
  hostPort: number;
  /** HTTP: the secret in the team's link (its cookie opens the entry point's door). */
  token?: string;
}

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
  try {
    if (!imageAllowed(d.image, policy))
      throw new InstanceStartError(
        `Image '${d.image}' is not under an allowed image prefix (INSTANCE_IMAGE_PREFIXES: ${policy.imagePrefixes.join(', ')})`,
      );
    const { containerId } = await driver.start({
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
      denyHosts: [plan.challengeHost, ctx.config.instances.probeHost].filter(Boolean),
      runtime: policy.runtime,
      challengeId: plan.challengeId,
      competitor: plan.competitor,
      expiresAt: plan.expiresAt,
    });
    // Stopped (or expired) while it was being made: the container must not stay.
    if (!(await setContainer(db, plan.instanceId, containerId))) {
      await driver.remove(plan.instanceId);
      return;
    }
    if (await untilAnswering(ctx, driver, plan)) await setRunning(db, plan.instanceId);
  } catch (err) {
    const message =
      err instanceof InstanceStartError
        ? err.message
        : `The start failed: ${(err as Error).message ?? String(err)}`;
    ctx.log.warn(`instance ${plan.instanceId}: ${message}`);
    await setFailed(db, plan.instanceId, message).catch(() => {});
    await driver.remove(plan.instanceId).catch(() => {});
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
