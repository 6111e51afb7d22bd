import type { AppContext } from '../../context.js';
import { DockerDriver } from './docker-driver.js';
import type { InstanceDriver } from './driver.js';

/**
 * This process's instance machinery: the driver (made on first use, so a site without instances
 * never talks to an engine) and the launches it is running now (the janitor leaves those alone,
 * and closing the app waits for them).
 */
interface Runtime {
  driver: InstanceDriver | null;
  launching: Map<number, Promise<void>>;
}

const runtimes = new WeakMap<AppContext, Runtime>();

function runtimeOf(ctx: AppContext): Runtime {
  let r = runtimes.get(ctx);
  if (!r) {
    r = { driver: null, launching: new Map() };
    runtimes.set(ctx, r);
  }
  return r;
}

export function driverOf(ctx: AppContext): InstanceDriver {
  const r = runtimeOf(ctx);
  r.driver ??= new DockerDriver(ctx.config.instances);
  return r.driver;
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
