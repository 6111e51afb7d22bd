import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type Docker from 'dockerode';
import { INSTANCE_MESSAGES } from '@ctf/contract';
import type { InstanceConfig } from '../../config.js';
import {
  EngineTimeoutError,
  InstanceStartError,
  LABELS,
  type WarmEntry,
  type WarmWant,
  type InstanceDriver,
  type InstanceSpec,
  type ManagedContainer,
} from './driver.js';
import {
  ENTRY_ALIAS,
  ROLE_LABEL,
  challengeOptions,
  entryNameOf,
  entryOptions,
  networkOptions,
} from './container-options.js';
import {
  PROBE_TIMEOUT_MS,
  engineMessage,
  pullImage,
  settled,
  startError,
  statusOf,
  tcpAnswers,
} from './engine-calls.js';
import { isWarmNetwork, keepWarmEntries, listWarmEntries } from './warm-entries.js';

export { engineMessage } from './engine-calls.js';

/** The newest Engine API this driver was written against; an older engine's own is used (1.41). */
const CLIENT_API = [1, 45] as const;
const OLDEST_API = [1, 41] as const;
/** Instances this process makes at once (start(), startWarm()). */
const START_CONCURRENCY = 12;
/** Tries to remove a network still in use by a container being removed (0.25 s, 0.5 s, ...). */
const NETWORK_REMOVE_ATTEMPTS = 5;
/** How long one listing of warm entry points serves the starts that ask for one. */
const WARM_LISTING_MS = 1000;

type ApiVersion = readonly [number, number];
const parseApi = (v: string): ApiVersion => {
  const [major = 0, minor = 0] = v.split('.').map(Number);
  return [major, minor];
};
const older = (a: ApiVersion, b: ApiVersion) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

/**
 * The Docker Engine API through dockerode: the local socket, or a remote engine over TCP (TLS
 * with DOCKER_CERT_PATH's certificates). The API version is negotiated once: the engine's own when
 * it is older than this driver's (Debian's engine 20.10 speaks 1.41), else this driver's.
 */
export class DockerDriver implements InstanceDriver {
  private connection: Promise<Docker> | null = null;
  private starting = 0;
  private readonly queue: (() => void)[] = [];
  /** The latest listing of warm entry points per shape, shared by the starts of a moment. */
  private readonly warmListings = new Map<string, { at: number; list: Promise<WarmEntry[]> }>();
  /** A short stable key of the site: container and network names of two sites never collide. */
  readonly siteKey: string;

  constructor(readonly config: InstanceConfig) {
    this.siteKey = createHash('sha256').update(config.site).digest('hex').slice(0, 8);
  }

  /** The container's (and its network's) name. */
  nameOf(instanceId: number): string {
    return `ctf-${this.siteKey}-i${instanceId}`;
  }

  /** The engine's client, connected on first use. */
  docker(): Promise<Docker> {
    if (!this.connection) {
      this.connection = this.bounded(this.connect()).catch((err: unknown) => {
        this.connection = null;
        throw err;
      });
    }
    return this.connection;
  }

  /**
   * One engine call under the engine deadline (INSTANCE_ENGINE_TIMEOUT_SECONDS): an engine that
   * accepts and never answers fails the call with EngineTimeoutError instead of hanging it. The
   * request itself is dropped by the client's own timeout (the same deadline, on the socket).
   */
  async bounded<T>(call: Promise<T>): Promise<T> {
    const ms = this.config.engineTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new EngineTimeoutError(INSTANCE_MESSAGES.engineTimeout(Math.round(ms / 1000)))),
        ms,
      );
    });
    try {
      return await Promise.race([call, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  async ping(): Promise<void> {
    const docker = await this.docker();
    await this.bounded(docker.ping());
  }

  private async connect(): Promise<Docker> {
    // NOTE: imported on first use: a site without instances never loads dockerode (nor its ssh2).
    const { default: Dockerode } = await import('dockerode');
    const d = this.config.docker;
    const options: Docker.DockerOptions =
      d.kind === 'socket'
        ? { socketPath: d.socketPath }
        : {
            host: d.host,
            port: d.port,
            protocol: d.tls ? 'https' : 'http',
            ...(d.tls && d.certPath
              ? {
                  ca: readFileSync(path.join(d.certPath, 'ca.pem')),
                  cert: readFileSync(path.join(d.certPath, 'cert.pem')),
                  key: readFileSync(path.join(d.certPath, 'key.pem')),
                }
              : {}),
          };
    // An unversioned /version is answered by every engine; the rest of the calls carry the version.
    // A socket that goes quiet this long is dropped by the client (bounded() answers first).
    options.timeout = this.config.engineTimeoutMs + 1000;
    const probe = new Dockerode(options);
    const version = await probe.version();
    const server = parseApi(version.ApiVersion);
    if (older(server, OLDEST_API)) {
      throw new InstanceStartError(
        `The Docker engine speaks API ${version.ApiVersion}; instances need ${OLDEST_API.join('.')} or newer`,
      );
    }
    const chosen = older(server, CLIENT_API) ? server : CLIENT_API;
    return new Dockerode({ ...options, version: `v${chosen[0]}.${chosen[1]}` });
  }

  /**
   * Makes at most START_CONCURRENCY instances at once in this process; the others wait their turn
   * before their first call. The engine serialises much of a start (networks, iptables), so 30
   * starts at once would each wait inside the engine, on their deadline; waiting here does not
   * count against it.
   */
  start(spec: InstanceSpec): Promise<{ containerId: string }> {
    return this.inTurn(() => this.startNow(spec));
  }

  private async inTurn<T>(make: () => Promise<T>): Promise<T> {
    while (this.starting >= START_CONCURRENCY) await new Promise<void>((r) => this.queue.push(r));
    this.starting += 1;
    try {
      return await make();
    } finally {
      this.starting -= 1;
      this.queue.shift()?.();
    }
  }

  private async client(): Promise<Docker> {
    return this.docker().catch((err: unknown) => {
      if (err instanceof EngineTimeoutError) throw err;
      throw new InstanceStartError(`The Docker engine cannot be reached: ${engineMessage(err)}`);
    });
  }

  labelsOf(spec: InstanceSpec): Record<string, string> {
    return {
      [LABELS.site]: this.config.site,
      [LABELS.instance]: String(spec.instanceId),
      [LABELS.challenge]: String(spec.challengeId),
      [LABELS.competitor]: spec.competitor,
      [LABELS.expires]: String(spec.expiresAt),
    };
  }

  /**
   * A cold start: the network and the challenge's container, and (at the same time: they do not
   * depend on each other) the entry point; then the entry point joins the network and both start.
   * Names are the instance's: a half-made earlier attempt met by name (409) goes, then once more.
   */
  private async startNow(spec: InstanceSpec): Promise<{ containerId: string }> {
    const docker = await this.client();
    const name = this.nameOf(spec.instanceId);
    const labels = this.labelsOf(spec);
    const make = async () => {
      const [container, entry] = await settled([
        this.bounded(docker.createNetwork(networkOptions(name, labels))).then(() =>
          this.createChallenge(docker, challengeOptions(spec, name, labels), spec.image),
        ),
        this.createEntry(docker, entryOptions(spec, entryNameOf(name), labels, this.config.entryImage)),
      ]);
      await this.bounded(
        docker.getNetwork(name).connect({ Container: entry.id, EndpointConfig: { Aliases: [ENTRY_ALIAS] } }),
      );
      await settled([this.bounded(container.start()), this.bounded(entry.start())]);
      return { containerId: container.id };
    };
    try {
      try {
        return await make();
      } catch (err) {
        if (statusOf(err) !== 409) throw err;
        await this.remove(spec.instanceId);
        return await make();
      }
    } catch (err) {
      await this.remove(spec.instanceId).catch(() => {});
      throw startError(err, spec.ports);
    }
  }

  /** The challenge's container; a missing image is pulled once. */
  async createChallenge(
    docker: Docker,
    options: Docker.ContainerCreateOptions,
    image: string,
  ): Promise<Docker.Container> {
    try {
      return await this.bounded(docker.createContainer(options));
    } catch (err) {
      if (statusOf(err) !== 404 || !/no such image/i.test(engineMessage(err))) throw err;
      await pullImage(docker, image, (call) => this.bounded(call));
      return this.bounded(docker.createContainer(options));
    }
  }

  /** An entry point's container; a missing entry point image is the operator's to build. */
  async createEntry(docker: Docker, options: Docker.ContainerCreateOptions): Promise<Docker.Container> {
    const entryImage = this.config.entryImage;
    return this.bounded(docker.createContainer(options)).catch((err: unknown) => {
      if (statusOf(err) !== 404) throw err;
      throw new InstanceStartError(
        `The entry point image '${entryImage}' is not on the Docker engine: build it there with scripts/docker/build-entry-point.sh (INSTANCE_ENTRY_IMAGE)`,
      );
    });
  }

  /** Starts an instance behind a warm entry point whose ports the launcher claimed. */
  startWarm(spec: InstanceSpec, warm: WarmEntry): Promise<{ containerId: string }> {
    return this.inTurn(() => this.startWarmNow(spec, warm));
  }

  private async startWarmNow(spec: InstanceSpec, warm: WarmEntry): Promise<{ containerId: string }> {
    const docker = await this.client();
    const name = this.nameOf(spec.instanceId);
    try {
      const options = challengeOptions(spec, name, this.labelsOf(spec), warm.network);
      const container = await this.createChallenge(docker, options, spec.image);
      await this.bounded(container.start());
      return { containerId: container.id };
    } catch (err) {
      await this.remove(spec.instanceId, spec.ports).catch(() => {});
      throw startError(err, spec.ports);
    }
  }

  async listWarm(key: string): Promise<WarmEntry[]> {
    await this.client();
    const now = Date.now();
    const cached = this.warmListings.get(key);
    if (cached && now - cached.at < WARM_LISTING_MS) return cached.list;
    const list = listWarmEntries(this, key);
    this.warmListings.set(key, { at: now, list });
    list.catch(() => this.warmListings.delete(key));
    return list;
  }

  keepWarm(wants: WarmWant[], avoidPorts: ReadonlySet<number>): Promise<void> {
    return keepWarmEntries(this, wants, avoidPorts);
  }

  async remove(instanceId: number, ports: readonly { hostPort: number }[] = []): Promise<void> {
    const docker = await this.docker();
    const name = this.nameOf(instanceId);
    // Behind a warm entry point, the challenge's network names it (and is removed with it).
    const networks = new Set([name]);
    const containers = new Set([entryNameOf(name), name]);
    try {
      const challenge = await this.bounded(docker.getContainer(name).inspect());
      const network = challenge.HostConfig.NetworkMode ?? '';
      if (isWarmNetwork(this, network)) {
        networks.add(network);
        containers.add(entryNameOf(network));
      }
    } catch (err) {
      if (statusOf(err) !== 404) throw err;
      // No challenge container (a start that failed or stopped before making it): a warm entry
      // point whose ports it took was shown to its team, and never goes back to the others.
      if (ports.length > 0)
        for (const warm of await listWarmEntries(this, null))
          if (warm.ports.some((p) => ports.some((q) => q.hostPort === p.hostPort))) {
            networks.add(warm.network);
            containers.add(warm.name);
          }
    }
    // The entry point and the challenge's container, then their network (it must be empty).
    await Promise.all(
      [...containers].map(async (container) => {
        try {
          await this.bounded(docker.getContainer(container).remove({ force: true, v: true }));
        } catch (err) {
          // 404: already gone; 409: a removal is already in progress (dockerd finishes it).
          if (statusOf(err) !== 404 && statusOf(err) !== 409) throw err;
        }
      }),
    );
    for (const network of networks) await this.removeNetwork(docker, network);
  }

  /**
   * Removes a network once it is empty: a container another removal (the janitor's, a stop's) is
   * still taking down keeps it "in use" for a moment; that is waited for, a few times.
   */
  private async removeNetwork(docker: Docker, network: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.bounded(docker.getNetwork(network).remove());
        return;
      } catch (err) {
        if (statusOf(err) === 404) return;
        const inUse = statusOf(err) === 403 || statusOf(err) === 409;
        if (!inUse || attempt >= NETWORK_REMOVE_ATTEMPTS) throw err;
        await new Promise((r) => setTimeout(r, 250 * attempt));
      }
    }
  }

  async list(): Promise<ManagedContainer[]> {
    const docker = await this.docker();
    const filters = JSON.stringify({ label: [`${LABELS.site}=${this.config.site}`] });
    const containers = await this.bounded(docker.listContainers({ all: true, filters }));
    const found: ManagedContainer[] = [];
    for (const c of containers) {
      // An entry point goes with its instance (remove() takes both); it is not listed apart.
      if (c.Labels[ROLE_LABEL] === 'entry') continue;
      const id = Number(c.Labels[LABELS.instance]);
      const expires = Number(c.Labels[LABELS.expires]);
      if (!Number.isSafeInteger(id) || id <= 0) continue;
      found.push({
        containerId: c.Id,
        instanceId: id,
        running: c.State === 'running',
        expiresAt: Number.isFinite(expires) ? expires : null,
      });
    }
    // A network without its container: a crash between the two, or a start being made right now
    // (the janitor removes it only when no row explains it).
    const named = new Set(found.map((c) => c.instanceId));
    for (const n of await this.bounded(docker.listNetworks({ filters }))) {
      const id = Number(n.Labels?.[LABELS.instance]);
      if (Number.isSafeInteger(id) && id > 0 && !named.has(id))
        found.push({ containerId: null, instanceId: id, running: false, expiresAt: null });
    }
    return found;
  }

  async answers(port: { hostPort: number; protocol: 'tcp' | 'http'; token?: string }): Promise<boolean> {
    const host = this.config.probeHost;
    if (port.protocol === 'http') {
      try {
        const res = await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${port.hostPort}/`, {
          signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
          redirect: 'manual',
          headers: port.token ? { cookie: `ctf_instance_${port.hostPort}=${port.token}` } : {},
        });
        await res.body?.cancel();
        // The entry point answers for a challenge that does not yet: not answering.
        return !(res.headers.get('x-ctf-entry') ?? '').includes('backend-down');
      } catch {
        return false;
      }
    }
    return tcpAnswers(host, port.hostPort);
  }

  async close(): Promise<void> {
    this.connection = null;
  }
}
