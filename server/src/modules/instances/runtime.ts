import type { EngineStatus } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { DockerDriver, engineMessage } from './docker-driver.js';
import { InstanceStartError, type InstanceDriver } from './driver.js';

/**
 * This process's instance machinery: the driver (made on first use, so a site without instances
 * never talks to an engine) and the launches it is running now (the janitor leaves those alone,
 * and closing the app waits for them).
 */
interface Runtime {
  driver: InstanceDriver | null;
  launching: Map<number, Promise<void>>;
  /** The latest engine check (the admin panel's), shared by callers for ENGINE_CHECK_MS. */
  engine: { at: number; status: Promise<EngineStatus> } | null;
}

/** How long one check of the engine answers the admin panel's polls (it refetches every 5 s). */
const ENGINE_CHECK_MS = 4_000;

const runtimes = new WeakMap<AppContext, Runtime>();

function runtimeOf(ctx: AppContext): Runtime {
  let r = runtimes.get(ctx);
  if (!r) {
    r = { driver: null, launching: new Map(), engine: null };
    runtimes.set(ctx, r);
  }
  return r;
}

export function driverOf(ctx: AppContext): InstanceDriver {
  const r = runtimeOf(ctx);
  r.driver ??= new DockerDriver(ctx.config.instances);
  return r.driver;
}

/** Whether the engine answers now, under its deadline: { reachable, message }. */
export function engineStatus(ctx: AppContext): Promise<EngineStatus> {
  const r = runtimeOf(ctx);
  const now = Date.now();
  if (!r.engine || now - r.engine.at >= ENGINE_CHECK_MS) {
    const status = driverOf(ctx)
      .ping()
      .then(
        () => ({ reachable: true, message: null }),
        (err: unknown) => ({
          reachable: false,
          message: err instanceof InstanceStartError ? err.message : engineMessage(err),
        }),
      );
    r.engine = { at: now, status };
  }
  return r.engine.status;
}

export function launchesOf(ctx: AppContext): Map<number, Promise<void>> {
  return runtimeOf(ctx).launching;
}

/** Waits for this process's launches to end, then lets the driver go (app close). */
export async function closeRuntime(ctx: AppContext): Promise<void> {
  const r = runtimes.get(ctx);
  if (!r) return;
  await Promise.allSettled([...r.launching.values()]);
  await r.driver?.close();
}
