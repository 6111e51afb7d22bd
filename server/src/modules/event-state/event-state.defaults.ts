import {
  CHALLENGE_HELP_PORT,
  DEFAULT_INSTANCES_PER_TEAM,
  DEFAULT_ABOUT_MD,
  DEFAULT_ACCENT,
  DEFAULT_FAQ_MD,
  DEFAULT_NAME,
  DEFAULT_REGISTRATION,
  LOGIN_METHODS,
  DEFAULT_RULES_MD,
  DEFAULT_TAGLINE,
  DEFAULT_PRIZE_TEXT,
  type EventSettings,
} from '@ctf/contract';
import type { Config } from '../../config.js';

export { DEFAULT_ABOUT_MD, DEFAULT_FAQ_MD, DEFAULT_HTML, DEFAULT_RULES_MD } from '@ctf/contract';

/** How long the window a new site makes for itself lasts. */
export const FIRST_RUN_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** How far ahead of the first start a new site's window opens (before rounding up to the hour). */
export const FIRST_RUN_LEAD_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The window of a site started without EVENT_START and EVENT_END: from seven days after `now`,
 * rounded up to a full hour, for a week. A visitor sees the countdown, and the organisers have the
 * week to prepare (every step, creating challenges included, works before the window) or to move
 * the dates.
 */
export function firstRunWindow(now: Date): { start: Date; end: Date } {
  const hour = 60 * 60 * 1000;
  const start = new Date(Math.ceil((now.getTime() + FIRST_RUN_LEAD_MS) / hour) * hour);
  return { start, end: new Date(start.getTime() + FIRST_RUN_WINDOW_MS) };
}

/**
 * What a new database stores beside its own window: play opens at the start and closes at the
 * end by itself. Stored (not a default), so an existing site keeps autoOpen and autoClose off.
 */
export const FIRST_RUN_SWITCHES = { autoOpen: true, autoClose: true } as const;

/**
 * The settings a new site starts with: the environment's values where it has them (docs/product.md §10),
 * and today's texts for the rest (contract/src/rules/default-texts.ts). Without EVENT_START and
 * EVENT_END the window is stored at the first start (ensureEventWindow), so `now` only matters
 * before that.
 */
export function defaultSettings(config: Config, now: Date): EventSettings {
  const window = config.eventWindow ?? firstRunWindow(now);
  return {
    name: DEFAULT_NAME,
    tagline: DEFAULT_TAGLINE,
    eventStart: window.start.toISOString(),
    eventEnd: window.end.toISOString(),
    aboutMd: DEFAULT_ABOUT_MD,
    rulesMd: DEFAULT_RULES_MD,
    faqMd: DEFAULT_FAQ_MD,
    prizeText: DEFAULT_PRIZE_TEXT,
    communityUrl: config.communityUrl,
    toolsUrl: config.toolsUrl,
    challengeHost: config.challengeHost,
    challengePort: CHALLENGE_HELP_PORT,
    accent: DEFAULT_ACCENT,
    afterEnd: 'open',
    autoOpen: false,
    autoClose: false,
    allowCreateDuringEvent: false,
    submissionRetentionDays: config.submissionRetentionDays,
    instancesPerTeam: DEFAULT_INSTANCES_PER_TEAM,
    writeups: { open: false, deadline: null, note: '' },
    registration: DEFAULT_REGISTRATION,
    loginMethods: [...LOGIN_METHODS],
  };
}
