import { z } from 'zod';
import { INSTANCE_ENV } from './config.instance-env.js';
import { WEBHOOK_EVENT_KINDS } from './config.shape.js';

// The environment variables, each with its check and its default; config.ts reads them (and
// .env) and derives the configuration from them.

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

/** The environment, one variable a line; every one optional (docs/product.md §10). */
export const EnvSchema = z.object({
  /** TCP port to listen on. */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Interface to listen on; the local trial sign-in needs a loopback one (127.0.0.1, ::1, localhost). */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** 'production' turns the local trial sign-in off whatever else is set (the container image sets it). */
  NODE_ENV: optionalNonEmpty,
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
  /**
   * One OpenID Connect provider (a university's single sign-on): its issuer URL (discovery at
   * ISSUER/.well-known/openid-configuration), the client registered there, the button's label and
   * the scopes asked for. An http:// issuer is accepted on a loopback host only (tests).
   */
  OIDC_ISSUER: optionalNonEmpty.pipe(url('OIDC_ISSUER').optional()),
  OIDC_CLIENT_ID: optionalNonEmpty,
  OIDC_CLIENT_SECRET: optionalNonEmpty,
  OIDC_LABEL: optionalNonEmpty.pipe(
    z.string().max(60, 'OIDC_LABEL must be at most 60 characters').optional(),
  ),
  OIDC_SCOPES: z.string().default('openid email profile'),
  /**
   * E-mail and password accounts are on when set: the SMTP server that sends their mail
   * (smtp://user:pass@host:587 with STARTTLS when offered, smtps://...:465 for TLS at once).
   */
  SMTP_URL: optionalNonEmpty.pipe(
    z
      .string()
      .refine((v) => /^smtps?:\/\/[^/\s]+/.test(v), 'SMTP_URL must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  /** The mails' From address (default: no-reply at PUBLIC_URL's host). */
  MAIL_FROM: optionalNonEmpty.pipe(z.string().max(200).optional()),
  /**
   * Comma list of discord:NAME, github:LOGIN, oidc:USERNAME (the provider's preferred_username),
   * local:NAME: admins from their next login.
   */
  ADMINS: z.string().default(''),
  /**
   * The event window's first value (both or neither). Unset: a new database gets one that starts
   * seven days after its first start (rounded up to a full hour) and lasts a week, with autoOpen
   * and autoClose on (event-state, stored).
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
  EVENT_STREAMS_MAX: optionalNonEmpty.pipe(z.coerce.number<string | undefined>().int().min(0).optional()),
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
  ...INSTANCE_ENV,
});

/** The variables once checked, defaults applied. */
export type Env = z.infer<typeof EnvSchema>;
