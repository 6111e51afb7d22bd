import net from 'node:net';
import type Docker from 'dockerode';
import { EngineTimeoutError, InstanceStartError, PortTakenError } from './driver.js';

// The Docker driver's helpers around engine calls: what a failure says, and the port probe.

/** A TCP service that keeps a connection this long without closing it is answering. */
const TCP_SETTLE_MS = 300;
export const PROBE_TIMEOUT_MS = 1500;
/** How long a pull may take before the start is given up. */
const PULL_TIMEOUT_MS = 120_000;

/** The engine's message of a failed call: its JSON `message`, else the error's own. */
export function engineMessage(err: unknown): string {
  const e = err as {
    json?: { message?: unknown };
    reason?: unknown;
    message?: unknown;
    statusCode?: unknown;
  };
  const fromJson = typeof e?.json?.message === 'string' ? e.json.message : null;
  const text = fromJson ?? (typeof e?.message === 'string' ? e.message : String(err));
  return text
    .replace(/^\(HTTP code \d+\) [a-z ]+ - /, '')
    .trim()
    .slice(0, 1000);
}

export const statusOf = (err: unknown) => (err as { statusCode?: number })?.statusCode;

/** The first failure of calls that all ran to their end (none is left half-way behind a throw). */
export async function settled<T extends unknown[]>(calls: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const results = await Promise.allSettled(calls);
  for (const r of results) if (r.status === 'rejected') throw r.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as T;
}

const PORT_TAKEN = /port is already allocated|address already in use/i;

/** Whether an engine call failed because a host port is held by another program. */
export const isPortTaken = (err: unknown) => PORT_TAKEN.test(engineMessage(err));

/** A failed start as the launcher reads it: a host port held by another program, or why not. */
export function startError(err: unknown, ports: readonly { hostPort: number }[]): InstanceStartError {
  const message = err instanceof InstanceStartError ? err.message : engineMessage(err);
  if (err instanceof EngineTimeoutError) return err;
  if (!PORT_TAKEN.test(message)) return new InstanceStartError(message);
  const named = [...message.matchAll(/:(\d{1,5})\b/g)]
    .map((m) => Number(m[1]))
    .filter((p) => ports.some((x) => x.hostPort === p));
  return new PortTakenError(message, named.length > 0 ? named : ports.map((p) => p.hostPort));
}

/**
 * A TCP service answers when it sends something, or keeps the connection open for a moment: the
 * engine's port proxy accepts every connection at once and closes it when nothing listens inside.
 */
export function tcpAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let done = false;
    const finish = (ok: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(overall);
      socket.destroy();
      resolve(ok);
    };
    const overall = setTimeout(() => finish(false), PROBE_TIMEOUT_MS);
    socket.once('connect', () => setTimeout(() => finish(true), TCP_SETTLE_MS));
    socket.once('data', () => finish(true));
    socket.once('end', () => finish(false));
    socket.once('close', () => finish(false));
    socket.once('error', () => finish(false));
  });
}

/** Pulls a missing image; a refusal names the image and carries the engine's message. */
export async function pullImage(
  docker: Docker,
  image: string,
  bounded: <T>(call: Promise<T>) => Promise<T>,
): Promise<void> {
  const failed = (err: unknown) =>
    new InstanceStartError(
      `Image '${image}' is not on the Docker engine and could not be pulled: ${engineMessage(err)}`,
    );
  let stream: NodeJS.ReadableStream;
  try {
    stream = (await bounded(docker.pull(image))) as NodeJS.ReadableStream;
  } catch (err) {
    throw failed(err);
  }
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(failed(new Error('the pull took too long'))), PULL_TIMEOUT_MS);
    docker.modem.followProgress(stream, (err: Error | null, events: { error?: string }[]) => {
      clearTimeout(timer);
      const bad = err ?? events.find((e) => e.error)?.error;
      if (bad) reject(failed(bad instanceof Error ? bad : new Error(bad)));
      else resolve();
    });
  });
}
