// What the app is configured with: the shape loadConfig (config.ts, the one reader of the
// environment) answers, and its parts.

import type { InstancePolicy } from '@ctf/contract';

/** What the Discord webhook may carry (WEBHOOK_EVENTS). */
export const WEBHOOK_EVENT_KINDS = ['announcements', 'first-blood', 'site'] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

export type AdminSpec = { provider: 'discord' | 'github' | 'oidc' | 'local'; name: string };

export interface OAuthProviderConfig {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  apiUrl: string;
}

/** The OpenID Connect provider (OIDC_*), or null when OIDC_ISSUER is not set. */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  label: string;
  scopes: string[];
  /** An http:// issuer on a loopback host (a test's provider): openid-client must allow it. */
  insecureLoopback: boolean;
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
  oidc: OidcConfig | null;
  /** E-mail and password accounts: SMTP_URL and the From address; null when SMTP_URL is not set. */
  mail: { smtpUrl: string; from: string } | null;
  /**
   * Local sign-in: only with no OAuth provider, a loopback PUBLIC_URL and a loopback HOST, never
   * with NODE_ENV=production (docs/product.md §11); each request must also come from loopback.
   */
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
  /** The deadline of every call to the engine (ms): a hung engine fails the call, never hangs it. */
  engineTimeoutMs: number;
  /** The entry point's image (the platform's proxy in front of every instance). */
  entryImage: string;
  /** Warm entry points per active instance challenge (INSTANCE_WARM_ENTRIES; 0: none). */
  warmEntries: number;
  /** The operator's box (INSTANCE_* variables): what a challenge's instance may ask for. */
  policy: InstancePolicy;
}
