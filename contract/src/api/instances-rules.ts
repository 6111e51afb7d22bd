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
  teamChanged: 'Your team changed while the instance was starting: press Start again.',
  noHost: 'The challenge host is not set: an admin must set it (Settings) before instances can start.',
  /** A call to the Docker engine that passed its deadline (INSTANCE_ENGINE_TIMEOUT_SECONDS). */
  engineTimeout: (seconds: number) => `The challenge host did not answer in ${seconds} s`,
  /** An author's edit of what runs (image, capabilities, writable root, network access). */
  adminOnly: (fields: readonly string[]) =>
    `Only an admin may change what an instance runs (${fields.map((f) => `instance.${f}`).join(', ')}): propose it in the description and ask an admin.`,
} as const;

/**
 * What the site's operator allows a challenge's instance (from the environment: INSTANCE_*), the
 * box every challenge chooses inside. GET /api/admin/instances/policy answers it.
 */
export interface InstancePolicy {
  /** The capabilities a challenge may add back (never one of NEVER_CAPABILITIES). */
  capabilities: string[];
  maxMemoryMb: number;
  maxCpus: number;
  maxPids: number;
  maxLifetimeMinutes: number;
  /** Image references must start with one of these; empty: any image on the engine. */
  imagePrefixes: string[];
  /** The engine's runtime for instances (e.g. runsc for gVisor); null: the engine's default. */
  runtime: string | null;
}

/**
 * Capabilities that break a container's isolation (mounts, modules, raw devices and packets,
 * other processes' memory, the host's clock, BPF): never added, whatever the setting says.
 */
export const NEVER_CAPABILITIES = [
  'SYS_ADMIN',
  'SYS_MODULE',
  'SYS_PTRACE',
  'SYS_RAWIO',
  'SYS_BOOT',
  'SYS_TIME',
  'SYS_RESOURCE',
  'SYS_PACCT',
  'SYS_TTY_CONFIG',
  'SYSLOG',
  'DAC_READ_SEARCH',
  'NET_ADMIN',
  'NET_RAW',
  'MAC_ADMIN',
  'MAC_OVERRIDE',
  'BPF',
  'PERFMON',
  'CHECKPOINT_RESTORE',
  'AUDIT_CONTROL',
  'LINUX_IMMUTABLE',
  'WAKE_ALARM',
  'BLOCK_SUSPEND',
] as const;

/** The capabilities a challenge may add when the operator sets none (INSTANCE_CAPABILITIES). */
export const DEFAULT_INSTANCE_CAPABILITIES = [
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'SETGID',
  'SETUID',
  'KILL',
  'NET_BIND_SERVICE',
] as const;

/** The policy's defaults when the environment sets nothing. */
export const DEFAULT_INSTANCE_POLICY: InstancePolicy = {
  capabilities: [...DEFAULT_INSTANCE_CAPABILITIES],
  maxMemoryMb: 1024,
  maxCpus: 1,
  maxPids: 512,
  maxLifetimeMinutes: 120,
  imagePrefixes: [],
  runtime: null,
};

/** The fields of an instance only an admin may set or change: what runs, and what it may reach. */
export const ADMIN_ONLY_INSTANCE_FIELDS = ['image', 'capabilities', 'writableRoot', 'egress'] as const;

interface PolicyCheckable {
  image: string;
  memoryMb: number;
  cpus: number;
  pids: number;
  lifetimeMinutes: number;
  capabilities?: string[] | undefined;
}

/**
 * The first way a definition asks for more than the policy allows, as a message naming the field
 * and the limit (the 400 of create, update and challenge.yml import); null when it fits.
 */
export function instancePolicyProblem(d: PolicyCheckable, policy: InstancePolicy): string | null {
  const over = (field: string, limit: string, variable: string) =>
    `Invalid instance.${field}: this site allows at most ${limit} (${variable})`;
  if (d.memoryMb > policy.maxMemoryMb)
    return over('memoryMb', `${policy.maxMemoryMb} MB`, 'INSTANCE_MAX_MEMORY_MB');
  if (d.cpus > policy.maxCpus) return over('cpus', `${policy.maxCpus} CPUs`, 'INSTANCE_MAX_CPUS');
  if (d.pids > policy.maxPids) return over('pids', `${policy.maxPids} processes`, 'INSTANCE_MAX_PIDS');
  if (d.lifetimeMinutes > policy.maxLifetimeMinutes)
    return over('lifetimeMinutes', `${policy.maxLifetimeMinutes} minutes`, 'INSTANCE_MAX_LIFETIME_MINUTES');
  for (const cap of d.capabilities ?? []) {
    if ((NEVER_CAPABILITIES as readonly string[]).includes(cap))
      return `Invalid instance.capabilities: ${cap} is never allowed (it breaks the container's isolation)`;
    if (!policy.capabilities.includes(cap))
      return `Invalid instance.capabilities: ${cap} is not allowed on this site (allowed: ${policy.capabilities.join(', ') || 'none'}; INSTANCE_CAPABILITIES)`;
  }
  if (policy.imagePrefixes.length > 0 && !policy.imagePrefixes.some((p) => d.image.startsWith(p)))
    return `Invalid instance.image: '${d.image}' is not under an allowed image prefix (${policy.imagePrefixes.join(', ')}; INSTANCE_IMAGE_PREFIXES)`;
  return null;
}

/** What a player connects with: `nc HOST PORT` for TCP, the team's own URL for HTTP. */
export function instanceAddress(
  host: string,
  port: number,
  protocol: InstanceProtocol,
  token?: string,
): string {
  return protocol === 'http' ? instanceUrl(host, port, token) : `nc ${host} ${port}`;
}

/**
 * An HTTP instance's address: its entry point's door (`/_instance/TOKEN` sets the cookie that
 * opens it, then sends the browser to `/`). Without the token the port answers 404.
 */
export function instanceUrl(host: string, port: number, token?: string): string {
  return `http://${host}:${port}/${token ? `_instance/${token}` : ''}`;
}
