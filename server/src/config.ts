import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { defaultStreamLimit } from './lib/fd-limit.js';
import { z } from 'zod';

/** Thrown for a bad setting; main.ts prints its message as one line and exits non-zero. */
export class ConfigError extends Error {}

const url = (name: string) =>
  z.string().refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, `${name} must be an absolute http(s) URL`);

const isoDate = (name: string) =>
  z.string().refine((v) => !Number.isNaN(Date.parse(v)), `${name} must be an ISO 8601 date`);

const optionalNonEmpty = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** What the Discord webhook may carry (WEBHOOK_EVENTS). */
export const WEBHOOK_EVENT_KINDS = ['announcements', 'first-blood', 'site'] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

/** The environment, one variable a line; every one optional (DESIGN.md §2). */
const EnvSchema = z.object({
  /** TCP port to listen on. */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Interface to listen on. */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** The site's origin as browsers see it (default http://localhost:PORT). */
  PUBLIC_URL: optionalNonEmpty.pipe(url('PUBLIC_URL').optional()),
  /** Folder for the SQLite file, uploads and the generated secret. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** Folder for uploaded challenge files (default DATA_DIR/uploads); a shared volume for several machines. */
  UPLOAD_DIR: optionalNonEmpty,
  /** Largest accepted upload in bytes (default 100 MB). */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(100 * 1024 * 1024),
  /** postgres://... selects PostgreSQL; unset means SQLite in DATA_DIR. */
  DATABASE_URL: optionalNonEmpty.pipe(
    z
      .string()
      .refine((v) => {
        try {
          const u = new URL(v);
          return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && u.host !== '';
        } catch {
          return false;
        }
      }, 'DATABASE_URL must be a postgres:// URL with a host')
      .optional(),
  ),
  /** SQLite synchronous mode: NORMAL (default; a power loss may drop the last commits) or FULL. */
  SQLITE_SYNCHRONOUS: z.enum(['NORMAL', 'FULL']).default('NORMAL'),
  /** redis://... for shared rate limits and cache invalidation across processes. */
  REDIS_URL: optionalNonEmpty.pipe(
    z
      .string()
      .refine((v) => /^rediss?:\/\/./.test(v), 'REDIS_URL must be a redis:// or rediss:// URL')
      .optional(),
  ),
  /** Prefix of every Redis key and channel, so several sites (or tests) can share one Redis. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]{0,64}$/, 'REDIS_PREFIX may use letters, digits, : _ -')
    .default('ctf:'),
  /** Key for signatures (join-request checksums); generated into DATA_DIR when unset. */
  SESSION_SECRET: optionalNonEmpty.pipe(
    z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  ),
  DISCORD_CLIENT_ID: optionalNonEmpty,
  DISCORD_CLIENT_SECRET: optionalNonEmpty,
  GITHUB_CLIENT_ID: optionalNonEmpty,
  GITHUB_CLIENT_SECRET: optionalNonEmpty,
  DISCORD_AUTH_URL: url('DISCORD_AUTH_URL').default('https://discord.com/oauth2/authorize'),
  DISCORD_TOKEN_URL: url('DISCORD_TOKEN_URL').default('https://discord.com/api/oauth2/token'),
  DISCORD_API_URL: url('DISCORD_API_URL').default('https://discord.com/api'),
  GITHUB_AUTH_URL: url('GITHUB_AUTH_URL').default('https://github.com/login/oauth/authorize'),
  GITHUB_TOKEN_URL: url('GITHUB_TOKEN_URL').default('https://github.com/login/oauth/access_token'),
  GITHUB_API_URL: url('GITHUB_API_URL').default('https://api.github.com'),
  /** Comma list of discord:NAME, github:LOGIN, local:NAME: admins from their next login. */
  ADMINS: z.string().default(''),
  /**
   * The event window's first value (both or neither). Unset: a new database gets one that starts
   * at the next full hour after its first start and lasts a week (event-state, stored).
   */
  EVENT_START: optionalNonEmpty.pipe(isoDate('EVENT_START').optional()),
  EVENT_END: optionalNonEmpty.pipe(isoDate('EVENT_END').optional()),
  /** The scoreboard freeze's first default (ISO 8601); the admin panel sets or lifts it later. */
  FREEZE_AT: isoDate('FREEZE_AT').optional(),
  COMMUNITY_URL: url('COMMUNITY_URL').default('https://discord.com/'),
  TOOLS_URL: url('TOOLS_URL').default('https://gchq.github.io/CyberChef/'),
  CHALLENGE_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.-]+$/, 'CHALLENGE_HOST must be a host name')
    .default('challenges.example.org'),
  /** Processes to run on one port (node:cluster). */
  WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  /** Log level: fatal, error, warn, info, debug, trace or silent. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Optional per-address limit on all API calls per minute (0 = off; a campus may share one address). */
  IP_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(0),
  /** Open live event streams (GET /api/events) allowed per address; more answer 429 (0 = no limit). */
  EVENT_STREAMS_PER_ADDRESS: z.coerce.number().int().min(0).default(20),
  /**
   * Open live event streams one process holds at most; more answer 429 and the page refreshes
   * every 30 s instead (0 = no limit). Unset: half the process's file descriptors (`ulimit -n`).
   */
  EVENT_STREAMS_MAX: z.coerce.number().int().min(0).optional(),
  /** Discord execute-webhook URL for announcements and first bloods (unset = no webhook). */
  DISCORD_WEBHOOK_URL: optionalNonEmpty.pipe(url('DISCORD_WEBHOOK_URL').optional()),
  /** Comma list of what goes to the webhook: announcements, first-blood, site. */
  WEBHOOK_EVENTS: z
    .string()
    .default('announcements,first-blood')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    )
    .pipe(
      z.array(
        z.enum(WEBHOOK_EVENT_KINDS, {
          error: 'WEBHOOK_EVENTS is a comma list of announcements, first-blood, site',
        }),
      ),
    ),
  /**
   * The reverse proxies whose X-Forwarded-For is believed (comma list of addresses, CIDR ranges or
   * loopback / linklocal / uniquelocal). Unset: X-Forwarded-For is ignored and the client address
   * is the connection's, so nobody can forge it. Behind nginx on the same machine: loopback.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()))
    .pipe(
      z
        .string()
        .regex(
          /^[0-9A-Za-z.:/,\s]+$/,
          'TRUST_PROXY must be a comma list of addresses, CIDR ranges or loopback',
        )
        .optional(),
    ),
  /**
   * The token an author's service sends (Authorization: Bearer) to read a competitor's per-team
   * flag (GET /api/admin/ctf/team-flag). Unset: that endpoint refuses every call.
   */
  ADMIN_API_TOKEN: optionalNonEmpty.pipe(
    z.string().min(32, 'ADMIN_API_TOKEN must be at least 32 characters').optional(),
  ),
  /**
   * The token Prometheus sends (Authorization: Bearer) to read GET /metrics. Unset: /metrics
   * answers 404 and nothing is measured.
   */
  METRICS_TOKEN: optionalNonEmpty.pipe(
    z.string().min(32, 'METRICS_TOKEN must be at least 32 characters').optional(),
  ),
  /** Days wrong attempts stay in the submission log (correct ones stay); 0 keeps them for ever. */
  SUBMISSION_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(90),
  /**
   * The Docker engine of challenge instances (issue 30), as the docker client reads them:
   * unix:///path/docker.sock (default /var/run/docker.sock) or tcp://HOST:PORT, with TLS when
   * DOCKER_TLS_VERIFY=1 (certificates ca.pem, cert.pem, key.pem in DOCKER_CERT_PATH).
   */
  DOCKER_HOST: optionalNonEmpty.pipe(
    z
      .string()
      .regex(
        /^(unix:\/\/\/.+|tcp:\/\/[^/:]+:[0-9]{1,5}\/?)$/,
        'DOCKER_HOST must be unix:///PATH or tcp://HOST:PORT',
      )
      .optional(),
  ),
  DOCKER_TLS_VERIFY: z
    .string()
    .optional()
    .transform((v) => v !== undefined && v !== '' && v !== '0'),
  DOCKER_CERT_PATH: optionalNonEmpty,
  /** Host ports published for instances: FIRST-LAST, inclusive. */
  INSTANCE_PORT_RANGE: z
    .string()
    .default('30000-30999')
    .transform((v, ctx) => {
      const m = /^\s*([0-9]{1,5})\s*-\s*([0-9]{1,5})\s*$/.exec(v);
      const first = Number(m?.[1]);
      const last = Number(m?.[2]);
      if (!m || first < 1 || last > 65535 || first > last) {
        ctx.addIssue({ code: 'custom', message: 'INSTANCE_PORT_RANGE must be FIRST-LAST, ports 1 to 65535' });
        return z.NEVER;
      }
      return { first, last };
    }),
  /**
   * Where this server connects to see that an instance answers on its published port: the
   * engine's host for tcp://, 127.0.0.1 for a local socket, unless set.
   */
  /**
   * Seconds an instance may take to start (made, then answering on its ports); a start left by a
   * process that died is given up after this long, so its team can start again.
   */
  INSTANCE_START_TIMEOUT_SECONDS: z.coerce.number().int().min(10).max(600).default(90),
  /**
   * The site's label on its containers (default: the public origin). Two sites that share one
   * engine must differ here, or each would remove the other's containers as orphans.
   */
  INSTANCE_SITE: optionalNonEmpty.pipe(z.string().max(200).optional()),
  INSTANCE_PROBE_HOST: optionalNonEmpty.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9.:-]+$/, 'INSTANCE_PROBE_HOST must be a host name or address')
      .optional(),
  ),
});

export type AdminSpec = { provider: 'discord' | 'github' | 'local'; name: string };

export interface OAuthProviderConfig {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  apiUrl: string;
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  publicOrigin: string;
  secureCookies: boolean;
  dataDir: string;
  uploadDir: string;
  uploadMaxBytes: number;
  database:
    { kind: 'sqlite'; file: string; synchronous: 'NORMAL' | 'FULL' } | { kind: 'postgres'; url: string };
  redisUrl: string | undefined;
  redisPrefix: string;
  sessionSecret: string;
  oauth: { discord: OAuthProviderConfig | null; github: OAuthProviderConfig | null };
  /** Local sign-in: only with no OAuth provider and a loopback PUBLIC_URL (DESIGN.md §3). */
  localLogin: boolean;
  admins: AdminSpec[];
  /** EVENT_START and EVENT_END, or null: a new database makes its own window at its first start. */
  eventWindow: { start: Date; end: Date } | null;
  /** FREEZE_AT: the freeze time until an admin sets or lifts one; null when unset. */
  freezeAt: Date | null;
  communityUrl: string;
  toolsUrl: string;
  challengeHost: string;
  workers: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  ipRateLimitPerMinute: number;
  /** Open live event streams per address (0 = no limit). */
  eventStreamsPerAddress: number;
  /** Open streams in this process at most (0 = no limit); see EVENT_STREAMS_MAX. */
  eventStreamsMax: number;
  /** The Discord webhook, or null; events lists what it carries. */
  webhook: { url: string; events: WebhookEventKind[] } | null;
  /** Proxies whose X-Forwarded-For is believed (Fastify's trustProxy); false: none. */
  trustProxy: string | false;
  /** Days wrong attempts stay in the submission log; 0: for ever (the setting's first value). */
  submissionRetentionDays: number;
  /** The admin API token of the team-flag endpoint; null: that endpoint is off. */
  adminApiToken: string | null;
  /** The bearer token of GET /metrics; null: metrics are off (404). */
  metricsToken: string | null;
  /** Challenge instances (issue 30): the engine, the published ports' range, where to probe. */
  instances: InstanceConfig;
  /** Where the built web app lives (web/dist). */
  webDist: string;
  /** The sample challenges the set-up checklist imports (docs/sample-challenges). */
  sampleChallengesDir: string;
}

export interface InstanceConfig {
  docker:
    | { kind: 'socket'; socketPath: string }
    | { kind: 'tcp'; host: string; port: number; tls: boolean; certPath: string | null };
  portRange: { first: number; last: number };
  probeHost: string;
  /** How long a start may take (ms); a row still starting after it was left by a dead process. */
  startTimeoutMs: number;
  /** The site's label on its containers (its public origin): sites sharing an engine keep apart. */
  site: string;
}

function instanceConfig(e: z.infer<typeof EnvSchema>, site: string): InstanceConfig {
  const host = e.DOCKER_HOST ?? 'unix:///var/run/docker.sock';
  let docker: InstanceConfig['docker'];
  if (host.startsWith('unix://')) docker = { kind: 'socket', socketPath: host.slice('unix://'.length) };
  else {
    const u = new URL(host.replace(/^tcp:/, 'http:'));
    const port = Number(u.port);
    // The docker client's rule: port 2376 is TLS even without DOCKER_TLS_VERIFY.
    const tls = e.DOCKER_TLS_VERIFY || port === 2376;
    docker = { kind: 'tcp', host: u.hostname, port, tls, certPath: e.DOCKER_CERT_PATH ?? null };
  }
  const probeHost = e.INSTANCE_PROBE_HOST ?? (docker.kind === 'tcp' ? docker.host : '127.0.0.1');
  return {
    docker,
    portRange: e.INSTANCE_PORT_RANGE,
    probeHost,
    startTimeoutMs: e.INSTANCE_START_TIMEOUT_SECONDS * 1000,
    site: e.INSTANCE_SITE ?? site,
  };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

function parseAdmins(raw: string): AdminSpec[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((entry) => {
      const m = /^(discord|github|local):(.+)$/.exec(entry);
      if (!m) throw new ConfigError(`ADMINS: '${entry}' must be discord:NAME, github:LOGIN or local:NAME`);
      return { provider: m[1] as AdminSpec['provider'], name: m[2]!.trim() };
    });
}

function provider(name: 'DISCORD' | 'GITHUB', env: z.infer<typeof EnvSchema>): OAuthProviderConfig | null {
  const id = env[`${name}_CLIENT_ID`];
  const secret = env[`${name}_CLIENT_SECRET`];
  if (!id && !secret) return null;
  if (!id || !secret) {
    throw new ConfigError(`${name}_CLIENT_ID and ${name}_CLIENT_SECRET must be set together`);
  }
  return {
    clientId: id,
    clientSecret: secret,
    authorizeUrl: env[`${name}_AUTH_URL`],
    tokenUrl: env[`${name}_TOKEN_URL`],
    apiUrl: env[`${name}_API_URL`].replace(/\/+$/, ''),
  };
}

/** The secret kept in DATA_DIR, made once with mode 0600 when SESSION_SECRET is not set. */
function secretFromDataDir(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
  } catch {
    // Another process made it first: use theirs.
    return readFileSync(file, 'utf8').trim();
  }
  chmodSync(file, 0o600);
  return secret;
}

let dotEnvRead = false;

/**
 * The process environment, after reading `.env` from the working directory into it when that file
 * exists (once per process). Node's own loader (process.loadEnvFile, Node 20.12+) never replaces a
 * variable the process already has, so the real environment wins over the file. The default of
 * loadConfig and loadStorageConfig: `npm start`, the container image and the backup, restore and
 * challenge scripts all read the same settings.
 */
export function processEnvironment(): Record<string, string | undefined> {
  if (!dotEnvRead) {
    dotEnvRead = true;
    if (existsSync('.env')) process.loadEnvFile('.env');
  }
  return process.env;
}

/**
 * Where the data lives (DATA_DIR, UPLOAD_DIR, DATABASE_URL), read the same way as loadConfig but
 * without making the session secret: backup and restore must not write into DATA_DIR first.
 */
export function loadStorageConfig(
  env: Record<string, string | undefined> = processEnvironment(),
): Pick<Config, 'dataDir' | 'uploadDir' | 'database'> {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(
      `Invalid configuration: ${String(issue.path[0] ?? 'environment')}: ${issue.message}`,
    );
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    dataDir,
    uploadDir: path.resolve(e.UPLOAD_DIR ?? path.join(dataDir, 'uploads')),
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'sqlite', file: path.join(dataDir, 'ctf.sqlite'), synchronous: e.SQLITE_SYNCHRONOUS },
  };
}

/** Reads and validates the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Record<string, string | undefined> = processEnvironment()): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Invalid configuration: ${variable}: ${issue.message}`);
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const pub = new URL(publicUrl);
  const dataDir = path.resolve(e.DATA_DIR);
  if ((e.EVENT_START === undefined) !== (e.EVENT_END === undefined))
    throw new ConfigError('Invalid configuration: EVENT_START and EVENT_END must be set together');
  const eventWindow =
    e.EVENT_START && e.EVENT_END ? { start: new Date(e.EVENT_START), end: new Date(e.EVENT_END) } : null;
  if (eventWindow && eventWindow.end <= eventWindow.start)
    throw new ConfigError('Invalid configuration: EVENT_END must be after EVENT_START');
  const oauth = { discord: provider('DISCORD', e), github: provider('GITHUB', e) };
  if (e.DATABASE_URL && !e.SESSION_SECRET) {
    // Several processes share a PostgreSQL database; a secret generated per machine would differ.
    throw new ConfigError(
      'Invalid configuration: SESSION_SECRET must be set when DATABASE_URL is PostgreSQL',
    );
  }
  const database: Config['database'] = e.DATABASE_URL
    ? { kind: 'postgres', url: e.DATABASE_URL }
    : { kind: 'sqlite', file: path.join(dataDir, 'ctf.sqlite'), synchronous: e.SQLITE_SYNCHRONOUS };
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    publicOrigin: pub.origin,
    secureCookies: pub.protocol === 'https:',
    dataDir,
    uploadDir: path.resolve(e.UPLOAD_DIR ?? path.join(dataDir, 'uploads')),
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    database,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    sessionSecret: e.SESSION_SECRET ?? secretFromDataDir(dataDir),
    oauth,
    localLogin: !oauth.discord && !oauth.github && isLoopback(pub.hostname),
    admins: parseAdmins(e.ADMINS),
    eventWindow,
    freezeAt: e.FREEZE_AT ? new Date(e.FREEZE_AT) : null,
    communityUrl: e.COMMUNITY_URL,
    toolsUrl: e.TOOLS_URL,
    challengeHost: e.CHALLENGE_HOST,
    workers: e.WORKERS,
    logLevel: e.LOG_LEVEL,
    ipRateLimitPerMinute: e.IP_RATE_LIMIT_PER_MINUTE,
    eventStreamsPerAddress: e.EVENT_STREAMS_PER_ADDRESS,
    eventStreamsMax: e.EVENT_STREAMS_MAX ?? defaultStreamLimit(),
    webhook: e.DISCORD_WEBHOOK_URL
      ? { url: e.DISCORD_WEBHOOK_URL, events: [...new Set(e.WEBHOOK_EVENTS)] }
      : null,
    trustProxy: e.TRUST_PROXY ?? false,
    submissionRetentionDays: e.SUBMISSION_RETENTION_DAYS,
    adminApiToken: e.ADMIN_API_TOKEN ?? null,
    metricsToken: e.METRICS_TOKEN ?? null,
    instances: instanceConfig(e, pub.origin),
    webDist: path.resolve(import.meta.dirname, '../../web/dist'),
    sampleChallengesDir: path.resolve(import.meta.dirname, '../../docs/sample-challenges'),
  };
}
