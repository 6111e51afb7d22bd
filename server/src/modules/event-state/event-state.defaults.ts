import {
  CHALLENGE_HELP_PORT,
  DEFAULT_INSTANCES_PER_TEAM,
  DEFAULT_ABOUT_MD,
  DEFAULT_ACCENT,
  DEFAULT_FAQ_MD,
  DEFAULT_NAME,
  DEFAULT_RULES_MD,
  DEFAULT_TAGLINE,
  PRIZE_POOL_TEXT,
  type EventSettings,
} from '@ctf/contract';
import type { Config } from '../../config.js';

export { DEFAULT_ABOUT_MD, DEFAULT_FAQ_MD, DEFAULT_HTML, DEFAULT_RULES_MD } from '@ctf/contract';

/**
 * The settings a new site starts with: the environment's values where it has them (DESIGN.md §2),
 * and today's texts for the rest (contract/src/rules/default-texts.ts).
 */
export function defaultSettings(config: Config): EventSettings {
  return {
    name: DEFAULT_NAME,
    tagline: DEFAULT_TAGLINE,
    eventStart: config.eventStart.toISOString(),
    eventEnd: config.eventEnd.toISOString(),
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
  };
}
