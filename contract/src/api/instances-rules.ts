/**
 * Per-team challenge instances (issue 30): the pure rules (no zod), shared by the server and the
 * web's entry of the contract.
 */
export const INSTANCE_PROTOCOLS = ['tcp', 'http'] as const;
export type InstanceProtocol = (typeof INSTANCE_PROTOCOLS)[number];

/** What a new instance definition starts with (a challenge.yml may leave any of them out). */
export const INSTANCE_DEFAULTS = {
  memoryMb: 256,
  cpus: 0.5,
  pids: 128,
  lifetimeMinutes: 30,
} as const;

export const INSTANCE_LIMITS = {
  imageMax: 255,
  portsMax: 4,
  envMax: 32,
  envNameMax: 64,
  envValueMax: 1000,
  capabilitiesMax: 16,
  memoryMbMin: 16,
  memoryMbMax: 16_384,
  cpusMin: 0.05,
  cpusMax: 16,
  pidsMin: 8,
  pidsMax: 4096,
  lifetimeMinutesMin: 1,
  lifetimeMinutesMax: 24 * 60,
  /**
   * Renewing sets the time left back to the lifetime, but an instance lives at most this many
   * lifetimes from its start: a team cannot hold a container for the whole event by renewing.
   */
  maxLifetimes: 4,
  /** Starts (and restarts) a competitor may make per window, whatever the challenge. */
  startsPerWindow: 10,
  startWindowMs: 10 * 60 * 1000,
  /** The per-team cap's largest value (the setting's range). */
  perTeamMax: 50,
} as const;

/** The default of the "instances per team" setting. */
export const DEFAULT_INSTANCES_PER_TEAM = 3;

/** Environment variable names an author may set; FLAG is the site's (the competitor's own flag). */
export const INSTANCE_ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const RESERVED_INSTANCE_ENV = ['FLAG'] as const;

/** A Linux capability name as Docker takes it (without CAP_): NET_BIND_SERVICE, SYS_PTRACE. */
export const CAPABILITY_NAME = /^[A-Z][A-Z_]{1,31}$/;

/**
 * An image reference: [registry[:port]/]name[:tag][@digest], lower-case repository path as Docker
 * requires. Checked on save so an obvious typo is not first found by a team pressing Start.
 */
export const IMAGE_REFERENCE =
  /^(?:[a-zA-Z0-9.-]+(?::[0-9]+)?\/)?[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/;

/** The texts players and admins read about instances. */
export const INSTANCE_MESSAGES = {
  none: 'No instance is running for your team.',
  notInstanceChallenge: 'This challenge has no instance to start.',
  perTeamLimit: (n: number) =>
    `Your team already runs ${n} instance${n === 1 ? '' : 's'}, the most allowed at once. Stop one first.`,
  failed: 'Your instance could not start. The organisers can see why; press Start to try again.',
  stopped: 'Instance stopped.',
  renewLimit: 'This instance cannot be renewed any further: stop it and start a new one.',
  notRenewable: 'Only a running instance can be renewed.',
  adminStopped: 'Instance stopped.',
  unknown: 'Instance not found',
  noHost: 'The challenge host is not set: an admin must set it (Settings) before instances can start.',
} as const;

/** What a player connects with: `nc HOST PORT` for TCP, the URL for HTTP. */
export function instanceAddress(host: string, port: number, protocol: InstanceProtocol): string {
  return protocol === 'http' ? instanceUrl(host, port) : `nc ${host} ${port}`;
}

export function instanceUrl(host: string, port: number): string {
  return `http://${host}:${port}/`;
}
