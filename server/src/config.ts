import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { LOGIN_METHODS, type LoginMethod } from '@ctf/contract';
import { EnvSchema, type Env } from './config.env.js';
import { defaultStreamLimit } from './lib/fd-limit.js';
import {
  type AdminSpec,
  type Config,
  type InstanceConfig,
  type OAuthProviderConfig,
  type OidcConfig,
} from './config.shape.js';

export {
  WEBHOOK_EVENT_KINDS,
  type AdminSpec,
  type Config,
  type InstanceConfig,
  type OAuthProviderConfig,
  type OidcConfig,
  type WebhookEventKind,
} from './config.shape.js';

/** Thrown for a bad setting; main.ts prints its message as one line and exits non-zero. */
export class ConfigError extends Error {}

function instanceConfig(e: Env, site: string): InstanceConfig {
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
    engineTimeoutMs: e.INSTANCE_ENGINE_TIMEOUT_SECONDS * 1000,
    entryImage: e.INSTANCE_ENTRY_IMAGE,
    warmEntries: e.INSTANCE_WARM_ENTRIES,
    policy: {
      capabilities: e.INSTANCE_CAPABILITIES,
      maxMemoryMb: e.INSTANCE_MAX_MEMORY_MB,
      maxCpus: e.INSTANCE_MAX_CPUS,
      maxPids: e.INSTANCE_MAX_PIDS,
      maxLifetimeMinutes: e.INSTANCE_MAX_LIFETIME_MINUTES,
      imagePrefixes: e.INSTANCE_IMAGE_PREFIXES,
      runtime: e.INSTANCE_RUNTIME ?? null,
    },
  };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Whether a host name or address is this machine's loopback (127.0.0.0/8, ::1, localhost). */
export function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * The local trial sign-in: only with no OAuth provider, a loopback PUBLIC_URL AND a loopback HOST
 * (so no other machine can even connect), and never with NODE_ENV=production (the container image).
 * Each request is checked again (modules/auth, localSignInRefusal): it must come from loopback.
 */
/** Logged at start while the trial is on: it must never go unnoticed on a machine others reach. */
export const LOCAL_SIGN_IN_WARNING =
  'Local trial sign-in is on: anyone using a browser on this machine can sign in as any user, ' +
  'administrator included. It turns off with an OAuth provider, a non-loopback HOST or ' +
  'PUBLIC_URL, or NODE_ENV=production.';

function localTrial(e: Env, publicHost: string, anyProvider: boolean): boolean {
  return !anyProvider && isLoopback(publicHost) && isLoopback(e.HOST) && e.NODE_ENV !== 'production';
}

function parseAdmins(raw: string): AdminSpec[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((entry) => {
      const m = /^(discord|github|oidc|local):(.+)$/.exec(entry);
      if (!m)
        throw new ConfigError(
          `ADMINS: '${entry}' must be discord:NAME, github:LOGIN, oidc:USERNAME or local:NAME`,
        );
      return { provider: m[1] as AdminSpec['provider'], name: m[2]!.trim() };
    });
}

function provider(name: 'DISCORD' | 'GITHUB', env: Env): OAuthProviderConfig | null {
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

function oidcProvider(env: Env): OidcConfig | null {
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: id, OIDC_CLIENT_SECRET: secret } = env;
  if (!issuer && !id && !secret) return null;
  if (!issuer || !id || !secret) {
    throw new ConfigError(
      'Invalid configuration: OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together',
    );
  }
  const u = new URL(issuer);
  const insecureLoopback = u.protocol === 'http:';
  if (insecureLoopback && !isLoopback(u.hostname)) {
    throw new ConfigError('Invalid configuration: OIDC_ISSUER must be an https:// URL');
  }
  const scopes = env.OIDC_SCOPES.split(/[\s,]+/).filter((s) => s !== '');
  if (!scopes.includes('openid')) {
    throw new ConfigError("Invalid configuration: OIDC_SCOPES must include 'openid'");
  }
  return {
    issuer,
    clientId: id,
    clientSecret: secret,
    label: env.OIDC_LABEL ?? 'Single sign-on',
    scopes,
    insecureLoopback,
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
  const oidc = oidcProvider(e);
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
    oidc,
    mail: e.SMTP_URL ? { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM ?? `no-reply@${pub.hostname}` } : null,
    localLogin: localTrial(e, pub.hostname, Boolean(oauth.discord || oauth.github || oidc)),
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

/** The ways in this configuration offers (the login page shows them in the admin's order). */
export function configuredLoginMethods(c: Config): LoginMethod[] {
  const on: Record<LoginMethod, boolean> = {
    discord: c.oauth.discord !== null,
    github: c.oauth.github !== null,
    oidc: c.oidc !== null,
    email: c.mail !== null,
    local: c.localLogin,
  };
  return LOGIN_METHODS.filter((m) => on[m]);
}
