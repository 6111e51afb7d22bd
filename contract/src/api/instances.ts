import { z } from 'zod';
import { AckResponse, IdInput, IdString, MessageResponse, endpoint } from './common.js';
import { ROUTES } from './routes.js';
import {
  CAPABILITY_NAME,
  IMAGE_REFERENCE,
  INSTANCE_DEFAULTS,
  INSTANCE_ENV_NAME,
  INSTANCE_LIMITS as L,
  INSTANCE_PROTOCOLS,
  RESERVED_INSTANCE_ENV,
} from './instances-rules.js';

export * from './instances-rules.js';

const whole = (what: string, min: number, max: number) =>
  z
    .number({ error: `${what} must be a number` })
    .int(`${what} must be a whole number`)
    .min(min, `${what} must be ${min} to ${max}`)
    .max(max, `${what} must be ${min} to ${max}`);

export const InstancePort = z.object({
  port: whole('port', 1, 65535),
  protocol: z.enum(INSTANCE_PROTOCOLS, { error: "protocol must be 'tcp' or 'http'" }),
});
export type InstancePort = z.infer<typeof InstancePort>;

/**
 * A challenge's container per team (issue 30): the image, the container ports published (TCP shown
 * as `nc HOST PORT`, HTTP as a link), the limits, the lifetime and environment variables. `FLAG`
 * is set by the site to the competitor's own flag. Optional additions: `capabilities` (added back
 * after every one is dropped) and `writableRoot` (the root file system is read-only otherwise).
 */
export const InstanceDefinition = z
  .object({
    image: z
      .string({ error: 'image is required' })
      .trim()
      .min(1, 'image is required')
      .max(L.imageMax, `image must be at most ${L.imageMax} characters`)
      .regex(IMAGE_REFERENCE, 'image must be an image reference such as name:tag'),
    ports: z
      .array(InstancePort)
      .min(1, 'ports needs at least one port')
      .max(L.portsMax, `ports takes at most ${L.portsMax}`)
      .refine((ports) => new Set(ports.map((p) => p.port)).size === ports.length, 'ports must differ'),
    memoryMb: whole('memoryMb', L.memoryMbMin, L.memoryMbMax).default(INSTANCE_DEFAULTS.memoryMb),
    cpus: z
      .number({ error: 'cpus must be a number' })
      .min(L.cpusMin, `cpus must be ${L.cpusMin} to ${L.cpusMax}`)
      .max(L.cpusMax, `cpus must be ${L.cpusMin} to ${L.cpusMax}`)
      .default(INSTANCE_DEFAULTS.cpus),
    pids: whole('pids', L.pidsMin, L.pidsMax).default(INSTANCE_DEFAULTS.pids),
    lifetimeMinutes: whole('lifetimeMinutes', L.lifetimeMinutesMin, L.lifetimeMinutesMax).default(
      INSTANCE_DEFAULTS.lifetimeMinutes,
    ),
    env: z
      .record(
        z
          .string()
          .max(L.envNameMax, `env names must be at most ${L.envNameMax} characters`)
          .regex(INSTANCE_ENV_NAME, 'env names are letters, digits and _')
          .refine(
            (name) => !(RESERVED_INSTANCE_ENV as readonly string[]).includes(name),
            'FLAG is set by the site (the competitor’s own flag)',
          ),
        z.string().max(L.envValueMax, `env values must be at most ${L.envValueMax} characters`),
      )
      .refine((env) => Object.keys(env).length <= L.envMax, `env takes at most ${L.envMax} variables`)
      .default({}),
    capabilities: z
      .array(z.string().regex(CAPABILITY_NAME, 'capabilities are names such as NET_BIND_SERVICE'))
      .max(L.capabilitiesMax)
      .optional(),
    writableRoot: z.boolean({ error: 'writableRoot must be true or false' }).optional(),
    /**
     * Outbound access to the internet (admins only): through the platform's egress proxy, to
     * public addresses only; never the host, private ranges or another instance.
     */
    egress: z.boolean({ error: 'egress must be true or false' }).default(false),
  })
  .strict();
export type InstanceDefinition = z.output<typeof InstanceDefinition>;
export type InstanceDefinitionInput = z.input<typeof InstanceDefinition>;

/** A published port as a player reaches it: the challenge host's port, and the link for HTTP. */
export const PublishedPort = z.object({
  port: z.number(),
  protocol: z.enum(INSTANCE_PROTOCOLS),
  url: z.string().optional(),
});
export type PublishedPort = z.infer<typeof PublishedPort>;

/** The competitor's instance of one challenge. `starting` until the container answers on its port. */
export const InstanceState = z.object({
  status: z.enum(['starting', 'running']),
  host: z.string(),
  ports: z.array(PublishedPort),
  /** ISO 8601 UTC. */
  expiresAt: z.string(),
});
export type InstanceState = z.infer<typeof InstanceState>;

const ChallengeRef = z.object({ challenge_id: IdInput });

export const startInstance = endpoint({
  ...ROUTES.instances.startInstance,
  body: ChallengeRef,
  response: InstanceState,
});
export const getInstance = endpoint({
  ...ROUTES.instances.getInstance,
  body: undefined,
  query: ChallengeRef,
  response: InstanceState,
});
export const renewInstance = endpoint({
  ...ROUTES.instances.renewInstance,
  body: ChallengeRef,
  response: InstanceState,
});
export const stopInstance = endpoint({
  ...ROUTES.instances.stopInstance,
  body: ChallengeRef,
  response: MessageResponse,
});

export const ADMIN_INSTANCE_STATES = ['starting', 'running', 'failed', 'stopping'] as const;

/** One instance as the admin panel lists it. */
export const AdminInstance = z.object({
  _id: IdString,
  /** The competitor: its team, or the user while teamless. */
  team: z.string(),
  challenge: z.string(),
  challenge_id: IdString.nullable(),
  state: z.enum(ADMIN_INSTANCE_STATES),
  /** ISO 8601 UTC. */
  created_at: z.string(),
  expires_at: z.string(),
  /** `nc HOST PORT` or a link per published port. */
  addresses: z.array(z.string()),
  /** The engine's own message of a failed pull or start. */
  error: z.string().nullable(),
  started_by: z.string().nullable(),
});
export type AdminInstance = z.infer<typeof AdminInstance>;

export const adminInstances = endpoint({
  ...ROUTES.instances.adminInstances,
  body: undefined,
  response: z.array(AdminInstance),
});
export const adminStopInstance = endpoint({
  ...ROUTES.instances.adminStopInstance,
  body: z.object({ instance_id: IdInput }),
  response: AckResponse,
});

/** The operator's instance policy (GET /api/admin/instances/policy): what a challenge may ask. */
export const InstancePolicyResponse = z.object({
  capabilities: z.array(z.string()),
  maxMemoryMb: z.number(),
  maxCpus: z.number(),
  maxPids: z.number(),
  maxLifetimeMinutes: z.number(),
  imagePrefixes: z.array(z.string()),
  runtime: z.string().nullable(),
});
export const instancePolicy = endpoint({
  ...ROUTES.instances.instancePolicy,
  body: undefined,
  response: InstancePolicyResponse,
});

/** Whether the challenge host's engine answers now (the admin panel's Instances tab). */
export const EngineStatus = z.object({
  reachable: z.boolean(),
  /** Why not (a deadline passed, the socket refused), or null. */
  message: z.string().nullable(),
});
export type EngineStatus = z.infer<typeof EngineStatus>;
export const instanceEngine = endpoint({
  ...ROUTES.instances.instanceEngine,
  body: undefined,
  response: EngineStatus,
});

export const INSTANCE_ADMIN_ENDPOINTS = [
  adminInstances,
  adminStopInstance,
  instancePolicy,
  instanceEngine,
] as const;
