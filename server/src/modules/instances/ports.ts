import { randomBytes } from 'node:crypto';
import type { InstanceProtocol } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/schema.js';
import { DomainError } from '../../lib/errors.js';
import { claimPort, findInstanceById, listUsedPorts, releasePorts, setPorts } from './instances.repo.js';

/** A published port as stored on the row: the container's port and the host's. */
export interface StoredPort {
  port: number;
  protocol: InstanceProtocol;
  hostPort: number;
  /** HTTP: the secret in the team's link (its cookie opens the entry point's door). */
  token?: string;
}

/** A row's published ports (its JSON text). */
export const portsOf = (row: { ports: string }): StoredPort[] => JSON.parse(row.ports) as StoredPort[];

/** An HTTP port answers only requests with this (the team's link sets it as a cookie). */
export const newPortToken = () => randomBytes(24).toString('base64url');

export const PORTS_TAKEN_MESSAGE = 'Every instance port is in use: try again when one is stopped.';

/**
 * Host ports for each container port, each claimed in the database (its key is the judge), each
 * picked at random among the free ones of INSTANCE_PORT_RANGE: two processes starting at once
 * rarely pick the same one, and when they do the primary key sends the second to another; a port
 * is never the next free one, so a neighbour's port says nothing about this one. `avoid`: ports
 * the engine found held by something else on the host (not in the database).
 */
export async function claimPorts(
  ctx: AppContext,
  trx: Executor,
  instanceId: number,
  wanted: readonly { port: number; protocol: InstanceProtocol }[],
  avoid: ReadonlySet<number> = new Set(),
): Promise<StoredPort[]> {
  const { first, last } = ctx.config.instances.portRange;
  const used = await listUsedPorts(trx);
  const free: number[] = [];
  for (let p = first; p <= last; p++) if (!used.has(p) && !avoid.has(p)) free.push(p);
  const out: StoredPort[] = [];
  for (const w of wanted) {
    let claimed: number | null = null;
    while (claimed === null && free.length > 0) {
      const [candidate] = free.splice(Math.floor(Math.random() * free.length), 1);
      if (await claimPort(trx, candidate!, instanceId)) claimed = candidate!;
    }
    if (claimed === null) throw new DomainError('unavailable', PORTS_TAKEN_MESSAGE);
    out.push({
      port: w.port,
      protocol: w.protocol,
      hostPort: claimed,
      ...(w.protocol === 'http' ? { token: newPortToken() } : {}),
    });
  }
  return out;
}

/**
 * A start whose host port the engine found held by another program ("port is already allocated",
 * "address already in use"): its ports move to other random ones (never one of `avoid`), on the
 * row and in the claims, while it is still starting. Null when the row is no longer starting.
 */
export async function movePorts(
  ctx: AppContext,
  instanceId: number,
  current: readonly StoredPort[],
  avoid: ReadonlySet<number>,
): Promise<StoredPort[] | null> {
  return ctx.database.transaction(async (trx) => {
    const row = await findInstanceById(trx, instanceId);
    if (!row || row.state !== 'starting') return null;
    await releasePorts(trx, instanceId);
    const moved = await claimPorts(ctx, trx, instanceId, current, avoid);
    await setPorts(trx, instanceId, JSON.stringify(moved));
    return moved;
  });
}

/**
 * Takes over the ports of a warm entry point (made ahead with its ports already published): the
 * row's own claims go and the entry point's are claimed instead. False (nothing changed) when one
 * of them is claimed by another instance, or the row is no longer starting.
 */
export async function adoptPorts(
  ctx: AppContext,
  instanceId: number,
  ports: readonly StoredPort[],
): Promise<boolean> {
  class Taken extends Error {}
  try {
    return await ctx.database.transaction(async (trx) => {
      const row = await findInstanceById(trx, instanceId);
      if (!row || row.state !== 'starting') return false;
      await releasePorts(trx, instanceId);
      for (const p of ports) if (!(await claimPort(trx, p.hostPort, instanceId))) throw new Taken();
      await setPorts(trx, instanceId, JSON.stringify(ports));
      return true;
    });
  } catch (err) {
    if (err instanceof Taken) return false;
    throw err;
  }
}
