import { z } from 'zod';
import { AckResponse, endpoint, markdownWithinBudget } from './common.js';
import { ROUTES } from './routes.js';
import { AFTER_END_MODES, SETTINGS_LIMITS } from './settings-rules.js';
import { INSTANCE_LIMITS } from './instances-rules.js';
import { WRITEUP_NOTE_MAX_LENGTH } from '../rules/constants.js';
import { LoginMethodOrder, RegistrationSettings } from './accounts.js';

export * from './settings-rules.js';

export const AfterEnd = z.enum(AFTER_END_MODES);

const ACCENT = /^#[0-9a-f]{6}$/i;
const HOST = /^[A-Za-z0-9.-]+$/;

const httpUrl = z
  .string()
  .trim()
  .max(SETTINGS_LIMITS.urlMax, `must be at most ${SETTINGS_LIMITS.urlMax} characters`)
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL');

const isoDate = z
  .string()
  .refine(
    (v) => /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v)),
    'must be an ISO 8601 date and time',
  )
  .transform((v) => new Date(v).toISOString());

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
const markdown = text(SETTINGS_LIMITS.markdownMax).superRefine(markdownWithinBudget(''));

/**
 * Writeup collection (issue 32): open or closed, an optional deadline (ISO 8601 UTC; after it
 * nothing more is taken) and a note shown to players beside the form.
 */
export const WriteupSettings = z
  .object({
    open: z.boolean({ error: 'writeups.open must be true or false' }),
    deadline: isoDate.nullable(),
    note: z
      .string()
      .trim()
      .max(WRITEUP_NOTE_MAX_LENGTH, `must be at most ${WRITEUP_NOTE_MAX_LENGTH} characters`),
  })
  .strict();
export type WriteupSettings = z.output<typeof WriteupSettings>;

/**
 * The event's settings as an admin edits them. Stored in the database; the environment variables
 * (EVENT_START, EVENT_END, COMMUNITY_URL, TOOLS_URL, CHALLENGE_HOST, SUBMISSION_RETENTION_DAYS)
 * are only their first values.
 */
export const EventSettings = z.object({
  name: text(SETTINGS_LIMITS.nameMax).trim().min(1, 'is required'),
  tagline: text(SETTINGS_LIMITS.taglineMax),
  /** ISO 8601 UTC; the panel shows and takes them in the admin's own time zone. */
  eventStart: isoDate,
  eventEnd: isoDate,
  aboutMd: markdown,
  rulesMd: markdown,
  faqMd: markdown,
  /** The organisers' own sentence about prizes, shown as written on the home page; empty: none. */
  prizeText: text(SETTINGS_LIMITS.prizeTextMax).trim(),
  communityUrl: httpUrl,
  toolsUrl: httpUrl,
  challengeHost: z
    .string()
    .trim()
    .max(SETTINGS_LIMITS.hostMax, `must be at most ${SETTINGS_LIMITS.hostMax} characters`)
    .regex(HOST, 'must be a host name'),
  challengePort: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be 1 to 65535')
    .max(65535, 'must be 1 to 65535'),
  /** A colour #rrggbb for buttons and links. */
  accent: z
    .string()
    .trim()
    .regex(ACCENT, 'must be a colour written #rrggbb')
    .transform((v) => v.toLowerCase()),
  afterEnd: AfterEnd,
  /** Switch the site on at the start time (once; recorded). */
  autoOpen: z.boolean(),
  /** Apply the after-event setting at the end time (once; recorded). */
  autoClose: z.boolean(),
  /**
   * Create Challenge and the import add new challenges inside the window too (off: they are
   * refused there with "Challenge creation is currently disabled during the event.").
   */
  allowCreateDuringEvent: z.boolean(),
  /**
   * Days a wrong (or refused) flag attempt stays in the submission log; 0 keeps them. Correct
   * attempts stay. SUBMISSION_RETENTION_DAYS is its first value (issue 18).
   */
  submissionRetentionDays: z
    .number()
    .int('must be a whole number')
    .min(0, `must be 0 to ${SETTINGS_LIMITS.retentionDaysMax}`)
    .max(SETTINGS_LIMITS.retentionDaysMax, `must be 0 to ${SETTINGS_LIMITS.retentionDaysMax}`),
  /** Challenge instances one team (or teamless player) may run at once (issue 30). */
  instancesPerTeam: z
    .number()
    .int('must be a whole number')
    .min(1, `must be 1 to ${INSTANCE_LIMITS.perTeamMax}`)
    .max(INSTANCE_LIMITS.perTeamMax, `must be 1 to ${INSTANCE_LIMITS.perTeamMax}`),
  /** Writeup collection (issue 32); GET /api/info/site carries it too. */
  writeups: WriteupSettings,
  /** Who may make a new account (open, e-mail domains, a registration code). */
  registration: RegistrationSettings,
  /** The order of the login page's ways in (GET /api/info/site's loginMethods follows it). */
  loginMethods: LoginMethodOrder,
});
export type EventSettings = z.output<typeof EventSettings>;
export type EventSettingsInput = z.input<typeof EventSettings>;
export const SETTING_KEYS = Object.keys(EventSettings.shape) as (keyof EventSettings)[];

/** The admin's view: every setting, and the logo's URL when one was uploaded. */
export const AdminSettings = EventSettings.extend({ logoUrl: z.string().nullable() });
export type AdminSettings = z.output<typeof AdminSettings>;

export const getSettings = endpoint({
  ...ROUTES.settings.getSettings,
  body: undefined,
  response: AdminSettings,
});

/** A partial body changes only what it names; unknown fields are refused. */
export const updateSettings = endpoint({
  ...ROUTES.settings.updateSettings,
  body: EventSettings.partial().strict(),
  response: AckResponse.extend({ settings: AdminSettings }),
});

/** Multipart with one field 'file' (PNG, JPEG or WebP, at most 1 MB); no JSON schema here. */
export const uploadLogo = endpoint({
  ...ROUTES.settings.uploadLogo,
  body: undefined,
  consumes: 'multipart/form-data',
  response: AckResponse.extend({ logoUrl: z.string() }),
});

/** Every settings endpoint (admin only), for the authorization matrix test. */
export const SETTINGS_ENDPOINTS = [getSettings, updateSettings, uploadLogo] as const;
export { LOGO_PATH } from './routes.js';
