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
  PRIZE_POOL_TEXT,
  type EventSettings,
} from '@ctf/contract';
import type { Config } from '../../config.js';

export { DEFAULT_ABOUT_MD, DEFAULT_FAQ_MD, DEFAULT_HTML, DEFAULT_RULES_MD } from '@ctf/contract';

/** How long the window a new site makes for itself lasts. */
export const FIRST_RUN_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The window of a site started without EVENT_START and EVENT_END: from the next full hour after
 * `now`, for a week. A visitor sees when it opens, and the first admin has that hour to set up
 * (or to move the dates) before the create lock of the window applies.
 */
export function firstRunWindow(now: Date): { start: Date; end: Date } {
  const hour = 60 * 60 * 1000;
  const start = new Date(Math.floor(now.getTime() / hour) * hour + hour);
  return { start, end: new Date(start.getTime() + FIRST_RUN_WINDOW_MS) };
}

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
    prizeText: PRIZE_POOL_TEXT,
    communityUrl: config.communityUrl,
    toolsUrl: config.toolsUrl,
    challengeHost: config.challengeHost,
    challengePort: CHALLENGE_HELP_PORT,
    accent: DEFAULT_ACCENT,
    afterEnd: 'open',
    autoOpen: false,
    autoClose: false,
    submissionRetentionDays: config.submissionRetentionDays,
    instancesPerTeam: DEFAULT_INSTANCES_PER_TEAM,
    writeups: { open: false, deadline: null, note: '' },
    registration: DEFAULT_REGISTRATION,
    loginMethods: [...LOGIN_METHODS],
  };
}
