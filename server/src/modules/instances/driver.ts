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
  /** Removes the instance's container and network, whatever their state; nothing left: no error. */
  remove(instanceId: number): Promise<void>;
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

/** The labels every container and network of this site carries. */
export const LABELS = {
  site: 'ctf.site',
  instance: 'ctf.instance',
  challenge: 'ctf.challenge',
  competitor: 'ctf.competitor',
  expires: 'ctf.expires',
} as const;
