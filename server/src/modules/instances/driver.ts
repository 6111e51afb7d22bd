import type { InstanceProtocol } from '@ctf/contract';

/**
 * What the instances service asks of a container platform (issue 30). The Docker driver
 * (docker-driver.ts) is the one built; a Kubernetes driver would implement the same interface
 * (docs/decisions/0010-instances-kubernetes.md). Every call is idempotent where it can be, since
 * the janitor repeats what a crashed process left half done.
 */
export interface InstanceDriver {
  /** Makes and starts the instance's container (and its own network). Throws InstanceStartError. */
  start(spec: InstanceSpec): Promise<{ containerId: string }>;
  /**
   * The warm entry points of this shape (warmKeyOf) running now, in random order, taken ones
   * included (their ports are claimed in the database); one listing serves the starts of a moment.
   */
  listWarm(key: string): Promise<WarmEntry[]>;
  /**
   * Makes and starts the challenge's container on a warm entry point's network: the entry point
   * is the instance's from then on (removed with it). The caller has claimed its host ports in
   * the database first (that claim decides between two starters).
   */
  startWarm(spec: InstanceSpec, warm: WarmEntry): Promise<{ containerId: string }>;
  /**
   * Keeps `count` warm entry points of each wanted shape (their host ports picked at random
   * outside `avoidPorts`) and removes every other warm one (a shape no longer wanted).
   */
  keepWarm(wants: WarmWant[], avoidPorts: ReadonlySet<number>): Promise<void>;
  /**
   * Removes the instance's containers and network, whatever their state; nothing left: no error.
   * `ports`: the row's, so a warm entry point it took before its container existed goes too.
   */
  remove(instanceId: number, ports?: readonly { hostPort: number }[]): Promise<void>;
  /**
   * Every container this site made on the platform, by its labels (running or not), and every
   * network left without its container (containerId null).
   */
  list(): Promise<ManagedContainer[]>;
  /** Whether the published port answers (a TCP service accepts and keeps or talks; HTTP replies). */
  answers(port: { hostPort: number; protocol: InstanceProtocol; token?: string }): Promise<boolean>;
  /** Whether the engine answers now (under the engine deadline); throws why not. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface InstanceSpec {
  instanceId: number;
  image: string;
  env: Record<string, string>;
  /** Each published port; an HTTP one carries the token its team's link sets (entry point). */
  ports: { port: number; protocol: InstanceProtocol; hostPort: number; token?: string }[];
  memoryMb: number;
  cpus: number;
  pids: number;
  /** Added back after every capability is dropped. */
  capabilities: string[];
  writableRoot: boolean;
  /** Outbound access to public addresses (through the entry point's egress proxy). */
  egress: boolean;
  /** Names whose addresses the egress proxy refuses besides private ranges (the challenge host). */
  denyHosts: string[];
  /** The engine's runtime (runsc for gVisor); null: its default. */
  runtime: string | null;
  /** What the labels carry, so a container explains itself to the janitor and to a person. */
  challengeId: number;
  competitor: string;
  /** ms: the latest the instance may live (renewals included); the janitor's bound for it. */
  expiresAt: number;
}

/**
 * An entry point made ahead of any start, with its own internal network, its host ports published
 * and its HTTP tokens chosen: a start then makes only the challenge's container, on that network.
 */
export interface WarmEntry {
  /** Its container's name while warm. */
  name: string;
  network: string;
  ports: { port: number; protocol: InstanceProtocol; hostPort: number; token?: string }[];
}

/** A shape of entry point to keep warm: what its configuration depends on, and how many. */
export interface WarmWant {
  key: string;
  ports: { port: number; protocol: InstanceProtocol }[];
  egress: boolean;
  denyHosts: string[];
  count: number;
}

export interface ManagedContainer {
  containerId: string | null;
  /** From the instance label (a container whose label cannot be read is not listed). */
  instanceId: number;
  running: boolean;
  /** ms, from the expiry label (null: unreadable). */
  expiresAt: number | null;
}

/** A failed pull or start, with the engine's own message (shown to admins). */
export class InstanceStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InstanceStartError';
  }
}

/** An engine call that passed its deadline: the engine accepted and did not answer in time. */
export class EngineTimeoutError extends InstanceStartError {
  constructor(message: string) {
    super(message);
    this.name = 'EngineTimeoutError';
  }
}

/**
 * How many times a start, or the making of a warm entry point, moves to other random host ports
 * of the range when the engine finds one held by another program.
 */
export const PORT_ATTEMPTS = 4;

/**
 * A start the engine refused because a host port is held by another program on the host ("port
 * is already allocated", "address already in use"): the launcher moves it to other ports.
 */
export class PortTakenError extends InstanceStartError {
  constructor(
    message: string,
    /** The host ports named by the engine (all of the start's when it named none). */
    readonly hostPorts: number[],
  ) {
    super(message);
    this.name = 'PortTakenError';
  }
}

/** The labels every container and network of this site carries. */
export const LABELS = {
  site: 'ctf.site',
  instance: 'ctf.instance',
  challenge: 'ctf.challenge',
  competitor: 'ctf.competitor',
  expires: 'ctf.expires',
} as const;
