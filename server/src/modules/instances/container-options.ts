import type Docker from 'dockerode';
import type { InstanceSpec } from './driver.js';

/**
 * What the engine is asked for each instance (docs/decisions/0018-instance-containment.md):
 * - the instance's own network: `internal` (the engine routes nothing in or out of it) and with
 *   no address of the host on its bridge (`inhibit_ipv4`), so its one route leads nowhere: the
 *   container reaches neither the internet, nor the host, nor any other network;
 * - the challenge's container on that network only, publishing nothing;
 * - the entry point (the platform's proxy image) on the engine's default bridge, publishing the
 *   instance's host ports, and on the instance's network as `entry`: the only way in, and with
 *   egress the only way out (an HTTP proxy to public addresses only).
 * Nothing here can be privileged, share a host namespace, or mount or map anything of the host.
 */

/** The challenge's name on its network, which the entry point connects to. */
export const CHALLENGE_ALIAS = 'challenge';
export const ENTRY_ALIAS = 'entry';
export const EGRESS_PORT = 3128;
/** The label that tells the entry point from the challenge's container. */
export const ROLE_LABEL = 'ctf.role';

export const entryNameOf = (name: string) => `${name}-entry`;

export function networkOptions(name: string, labels: Record<string, string>): Docker.NetworkCreateOptions {
  return {
    Name: name,
    Driver: 'bridge',
    Internal: true,
    Labels: labels,
    CheckDuplicate: true,
    Options: { 'com.docker.network.bridge.inhibit_ipv4': 'true' },
  };
}

/** The host's side nothing may ask for: no privileges, no host namespace, device or mount. */
const SEALED = (): Docker.HostConfig => ({
  Privileged: false,
  CapDrop: ['ALL'],
  SecurityOpt: ['no-new-privileges'],
  Binds: [],
  Mounts: [],
  Devices: [],
  IpcMode: 'private',
  RestartPolicy: { Name: 'no' },
  LogConfig: { Type: 'json-file', Config: { 'max-size': '1m', 'max-file': '1' } },
});

export function challengeOptions(
  spec: InstanceSpec,
  name: string,
  labels: Record<string, string>,
  /** The instance's internal network (its own name, or a warm entry point's network). */
  network: string = name,
): Docker.ContainerCreateOptions {
  const env = { ...spec.env };
  if (spec.egress) {
    const proxy = `http://${ENTRY_ALIAS}:${EGRESS_PORT}`;
    Object.assign(env, { HTTP_PROXY: proxy, HTTPS_PROXY: proxy, http_proxy: proxy, https_proxy: proxy });
  }
  return {
    name,
    Image: spec.image,
    Env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
    Labels: { ...labels, [ROLE_LABEL]: 'challenge' },
    HostConfig: {
      ...SEALED(),
      // Init reaps zombies and passes SIGTERM on (a Node or shell PID 1 would ignore it).
      Init: true,
      ...(spec.runtime ? { Runtime: spec.runtime } : {}),
      CapDrop: ['ALL'],
      CapAdd: spec.capabilities,
      ReadonlyRootfs: !spec.writableRoot,
      // A read-only root still needs somewhere to write scratch files.
      ...(spec.writableRoot ? {} : { Tmpfs: { '/tmp': 'rw,nosuid,nodev,size=16m' } }),
      Memory: spec.memoryMb * 1024 * 1024,
      MemorySwap: spec.memoryMb * 1024 * 1024,
      NanoCpus: Math.round(spec.cpus * 1e9),
      PidsLimit: spec.pids,
      NetworkMode: network,
    },
    NetworkingConfig: { EndpointsConfig: { [network]: { Aliases: [CHALLENGE_ALIAS] } } },
  };
}

/**
 * The entry point: the instance's published ports, and its egress proxy when it has egress. It
 * forwards to the challenge's alias on its network, looked up at each connection, so it may be
 * made (warm) before the challenge's container exists.
 */
export function entryOptions(
  spec: Pick<InstanceSpec, 'ports' | 'egress' | 'denyHosts'>,
  containerName: string,
  labels: Record<string, string>,
  entryImage: string,
): Docker.ContainerCreateOptions {
  const routes = spec.ports.map((p) => ({
    listen: p.hostPort,
    target: CHALLENGE_ALIAS,
    port: p.port,
    protocol: p.protocol,
    ...(p.token ? { token: p.token } : {}),
  }));
  return {
    name: containerName,
    Image: entryImage,
    Env: [
      `ROUTES=${JSON.stringify(routes)}`,
      `EGRESS=${spec.egress ? '1' : '0'}`,
      `DENY_HOSTS=${spec.denyHosts.join(',')}`,
    ],
    Labels: { ...labels, [ROLE_LABEL]: 'entry' },
    ExposedPorts: Object.fromEntries(spec.ports.map((p) => [`${p.hostPort}/tcp`, {}])),
    HostConfig: {
      ...SEALED(),
      Init: true,
      ReadonlyRootfs: true,
      Memory: 96 * 1024 * 1024,
      MemorySwap: 96 * 1024 * 1024,
      NanoCpus: 0.5e9,
      PidsLimit: 64,
      PortBindings: Object.fromEntries(
        spec.ports.map((p) => [`${p.hostPort}/tcp`, [{ HostIp: '', HostPort: String(p.hostPort) }]]),
      ),
      // The engine's default bridge: published ports reach it; the instance's network is joined
      // (as `entry`) before it starts.
      NetworkMode: 'bridge',
    },
  };
}
