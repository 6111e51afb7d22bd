import { createHash, randomBytes, randomInt } from 'node:crypto';
import type Docker from 'dockerode';
import type { InstanceConfig } from '../../config.js';
import { ENTRY_ALIAS, entryNameOf, entryOptions, networkOptions } from './container-options.js';
import { LABELS, PORT_ATTEMPTS, type WarmEntry, type WarmWant } from './driver.js';
import { isPortTaken } from './engine-calls.js';

/**
 * Warm entry points (docs/decisions/0018-instance-containment.md): per shape of instance (its
 * ports, egress and refused hosts), a few entry points made ahead, each with its own internal
 * network, published host ports and HTTP tokens, so that a start makes one container instead of
 * a network and two containers. The entry point forwards to the `challenge` alias of its network,
 * looked up at each connection: it waits for the challenge's container without knowing it.
 * A start takes one by claiming its host ports in the database (the claim decides between two
 * processes) and makes the challenge's container on its network; from then on it is the
 * instance's: it is removed with it (found through the challenge's network), never given to
 * another team (that team's port and token are in it). The janitor's leader makes new ones.
 */

/** Which shape a warm entry point serves (the label's value: warmKeyOf). */
export const WARM_LABEL = 'ctf.warm';
/** A warm entry point's own network (its container is that name's entry point). */
export const NETWORK_LABEL = 'ctf.network';
/** A warm entry point's published ports and tokens (JSON), read by the start that takes it. */
const PORTS_LABEL = 'ctf.ports';
/** A warm network without its entry point this old is left over (younger: being made). */
const ORPHAN_AGE_MS = 60_000;
/** Warm entry points made at once by one sweep. */
const MAKE_CONCURRENCY = 4;

/** What the driver gives this module: the engine under its deadline, and the names it uses. */
export interface EngineAccess {
  readonly config: InstanceConfig;
  readonly siteKey: string;
  docker(): Promise<Docker>;
  bounded<T>(call: Promise<T>): Promise<T>;
  createEntry(docker: Docker, options: Docker.ContainerCreateOptions): Promise<Docker.Container>;
}

export interface EntryShape {
  ports: readonly { port: number; protocol: string }[];
  egress: boolean;
  denyHosts: readonly string[];
}

/** The names the egress proxy refuses besides private ranges: the challenge host and the probe's. */
export const denyHostsOf = (challengeHost: string, probeHost: string) =>
  [challengeHost, probeHost].filter(Boolean);

/**
 * A stable key of everything an entry point depends on but its host ports and tokens: its image
 * (INSTANCE_ENTRY_IMAGE) and its configuration.
 */
export function warmKeyOf(shape: EntryShape, entryImage: string): string {
  const text = JSON.stringify([
    entryImage,
    shape.ports.map((p) => [p.port, p.protocol]),
    shape.egress,
    [...shape.denyHosts].sort(),
  ]);
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

const warmPrefix = (e: { siteKey: string }) => `ctf-${e.siteKey}-w`;
/** Whether a network is a warm entry point's (its entry point is entryNameOf(network)). */
export const isWarmNetwork = (e: { siteKey: string }, network: string) => network.startsWith(warmPrefix(e));
const statusOf = (err: unknown) => (err as { statusCode?: number })?.statusCode;
const nameOfListed = (c: Docker.ContainerInfo) => (c.Names[0] ?? '').replace(/^\//, '');

function warmOf(c: Docker.ContainerInfo): WarmEntry | null {
  try {
    const ports = JSON.parse(c.Labels[PORTS_LABEL] ?? '') as WarmEntry['ports'];
    const network = c.Labels[NETWORK_LABEL];
    return Array.isArray(ports) && network ? { name: nameOfListed(c), network, ports } : null;
  } catch {
    return null;
  }
}

/**
 * The running warm entry points of a shape, in random order (two starters rarely pick alike);
 * those taken by an instance are among them (their ports are claimed in the database). Key null:
 * every warm entry point of the site, running or not.
 */
export async function listWarmEntries(e: EngineAccess, key: string | null): Promise<WarmEntry[]> {
  const docker = await e.docker();
  const filters = JSON.stringify({
    label: [`${LABELS.site}=${e.config.site}`, key === null ? WARM_LABEL : `${WARM_LABEL}=${key}`],
    ...(key === null ? {} : { status: ['running'] }),
  });
  const found = (await e.bounded(docker.listContainers({ filters })))
    .filter((c) => nameOfListed(c).startsWith(warmPrefix(e)))
    .map(warmOf)
    .filter((w): w is WarmEntry => w !== null);
  for (let i = found.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [found[i], found[j]] = [found[j]!, found[i]!];
  }
  return found;
}

async function removeWarm(e: EngineAccess, docker: Docker, entryName: string, network: string | undefined) {
  try {
    await e.bounded(docker.getContainer(entryName).remove({ force: true, v: true }));
  } catch (err) {
    if (statusOf(err) !== 404 && statusOf(err) !== 409) throw err;
  }
  if (network) await removeNetwork(e, docker, network);
}

async function removeNetwork(e: EngineAccess, docker: Docker, network: string) {
  try {
    await e.bounded(docker.getNetwork(network).remove());
  } catch (err) {
    // 404: gone; 403/409: still in use (an instance's, or one being made): left alone.
    if (![403, 404, 409].includes(statusOf(err) ?? 0)) throw err;
  }
}

/**
 * The janitor's part: keeps `count` warm entry points of each wanted shape; removes the warm ones
 * of a shape no longer wanted (a challenge changed or went) and those not running, and warm
 * networks whose entry point is gone.
 */
export async function keepWarmEntries(
  e: EngineAccess,
  wants: readonly WarmWant[],
  avoidPorts: ReadonlySet<number>,
): Promise<void> {
  const docker = await e.docker();
  const filters = JSON.stringify({ label: [`${LABELS.site}=${e.config.site}`] });
  const everything = await e.bounded(docker.listContainers({ all: true, filters }));
  const all = everything.filter((c) => c.Labels[WARM_LABEL] !== undefined);
  const held = new Set(avoidPorts);
  for (const c of all) for (const p of warmOf(c)?.ports ?? []) held.add(p.hostPort);
  // Taken by an instance: a challenge's container on its network, or its ports claimed (a start
  // about to make that container). It goes with its instance, whatever its shape.
  const instanceNetworks = new Set(
    everything.filter((c) => c.Labels[WARM_LABEL] === undefined).map((c) => c.HostConfig?.NetworkMode),
  );
  const taken = (c: Docker.ContainerInfo) =>
    instanceNetworks.has(c.Labels[NETWORK_LABEL] ?? '') ||
    (warmOf(c)?.ports ?? []).some((p) => avoidPorts.has(p.hostPort));
  const wanted = new Map(wants.map((w) => [w.key, w]));
  const have = new Map<string, number>();
  for (const c of all) {
    const name = nameOfListed(c);
    if (!name.startsWith(warmPrefix(e)) || taken(c)) continue;
    const key = c.Labels[WARM_LABEL] ?? '';
    // Not those beyond the count (two sweeps at once made too many): one may be being taken now.
    if (!wanted.has(key) || c.State !== 'running') {
      await removeWarm(e, docker, name, c.Labels[NETWORK_LABEL]);
      continue;
    }
    have.set(key, (have.get(key) ?? 0) + 1);
  }
  // A network whose warm entry point is gone (a crash between the two) and that no instance uses;
  // a young one may be getting its entry point right now.
  const named = new Set(all.map((c) => c.Labels[NETWORK_LABEL]));
  const young = Date.now() - ORPHAN_AGE_MS;
  for (const n of await e.bounded(docker.listNetworks({ filters }))) {
    const orphan = n.Name.startsWith(warmPrefix(e)) && !named.has(n.Name) && !instanceNetworks.has(n.Name);
    if (orphan && Date.parse(n.Created) < young) await removeNetwork(e, docker, n.Name);
  }

  const jobs: WarmWant[] = [];
  for (const w of wants) for (let i = have.get(w.key) ?? 0; i < w.count; i++) jobs.push(w);
  let failure: unknown = null;
  const worker = async () => {
    for (let w = jobs.shift(); w && !failure; w = jobs.shift())
      await makeWarm(e, docker, w, held).catch((err: unknown) => {
        failure = err;
      });
  };
  await Promise.all(Array.from({ length: MAKE_CONCURRENCY }, worker));
  if (failure) throw failure;
}

/** A free host port of the range at random (none: null). */
function pickPort(e: EngineAccess, held: Set<number>): number | null {
  const { first, last } = e.config.portRange;
  const free: number[] = [];
  for (let p = first; p <= last; p++) if (!held.has(p)) free.push(p);
  if (free.length === 0) return null;
  const port = free[randomInt(free.length)]!;
  held.add(port);
  return port;
}

/**
 * One warm entry point: its network, then the entry point on it and on the default bridge. A host
 * port held by another program sends it to other random ports of the range (PORT_ATTEMPTS in all,
 * then another pick at the next sweep); each refused port stays in `held`, never picked again.
 */
async function makeWarm(e: EngineAccess, docker: Docker, want: WarmWant, held: Set<number>): Promise<void> {
  for (let attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
    const ports: WarmEntry['ports'] = [];
    for (const p of want.ports) {
      const hostPort = pickPort(e, held);
      if (hostPort === null) return;
      ports.push({
        port: p.port,
        protocol: p.protocol,
        hostPort,
        ...(p.protocol === 'http' ? { token: randomBytes(24).toString('base64url') } : {}),
      });
    }
    const network = `${warmPrefix(e)}${randomBytes(6).toString('hex')}`;
    const labels = { [LABELS.site]: e.config.site, [WARM_LABEL]: want.key };
    const entryName = entryNameOf(network);
    try {
      await e.bounded(docker.createNetwork(networkOptions(network, labels)));
      const entry = await e.createEntry(
        docker,
        entryOptions(
          { ports, egress: want.egress, denyHosts: want.denyHosts },
          entryName,
          { ...labels, [NETWORK_LABEL]: network, [PORTS_LABEL]: JSON.stringify(ports) },
          e.config.entryImage,
        ),
      );
      await e.bounded(
        docker
          .getNetwork(network)
          .connect({ Container: entry.id, EndpointConfig: { Aliases: [ENTRY_ALIAS] } }),
      );
      await e.bounded(entry.start());
      return;
    } catch (err) {
      await removeWarm(e, docker, entryName, network).catch(() => {});
      if (!isPortTaken(err)) throw err;
    }
  }
}
