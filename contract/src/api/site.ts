import { z } from 'zod';
import { endpoint } from './common.js';
import { ROUTES } from './routes.js';
import { AfterEnd, WriteupSettings } from './settings.js';
import { LOGIN_METHODS } from './oauth.js';

export const SiteInfo = z.object({
  eventStart: z.string(),
  eventEnd: z.string(),
  prizeText: z.string(),
  communityUrl: z.string(),
  toolsUrl: z.string(),
  challengeHost: z.string(),
  challengePort: z.number(),
  activated: z.boolean(),
  /** When the scoreboard freezes (or froze): ISO 8601 UTC, or null when no freeze is set. */
  freezeAt: z.string().nullable(),
  login: z.object({ discord: z.boolean(), github: z.boolean(), local: z.boolean() }),
  /** The ways in this site offers, in the order its login page shows them (the admin's order). */
  loginMethods: z.array(z.enum(LOGIN_METHODS)),
  /** The single sign-on button's label (OIDC_LABEL); null when OpenID Connect is not configured. */
  oidcLabel: z.string().nullable(),
  /** The event's name: navbar brand, page titles, home heading. */
  name: z.string(),
  tagline: z.string(),
  /** The settings' Markdown, rendered and sanitised on the server (the browser sanitises again). */
  about_html: z.string(),
  rules_html: z.string(),
  faq_html: z.string(),
  logoUrl: z.string().nullable(),
  accent: z.string(),
  afterEnd: AfterEnd,
  /** The division names, in the admins' order; empty when the site has none. */
  divisions: z.array(z.string()),
  /** No account is an admin yet: the login page says how to make the first one. */
  firstAdminNeeded: z.boolean(),
  /** Writeup collection (issue 32): open, the deadline (ISO 8601 UTC or null) and the admin's note. */
  writeups: WriteupSettings,
});
export type SiteInfo = z.infer<typeof SiteInfo>;

/** Public settings the web needs before anyone logs in. */
export const siteInfo = endpoint({ ...ROUTES.site.siteInfo, body: undefined, response: SiteInfo });

export const health = endpoint({
  ...ROUTES.site.health,
  body: undefined,
  response: z.object({
    status: z.enum(['ok', 'degraded']),
    database: z.boolean(),
    redis: z.boolean().nullable(),
    version: z.string(),
    uptimeSeconds: z.number(),
  }),
});
