import type { AdminSettings } from '@ctf/contract';

/**
 * The Settings tab's sections, each a form with its own Save and its own address
 * (`?tab=settings&section=ID`, like the tabs): what each one edits.
 */
export const SETTINGS_SECTIONS = [
  { id: 'event', title: 'Event' },
  { id: 'branding', title: 'Branding' },
  { id: 'texts', title: 'Texts' },
  { id: 'play', title: 'Play' },
  { id: 'writeups', title: 'Writeups' },
  { id: 'signin', title: 'Sign-in' },
  { id: 'integrity', title: 'Integrity' },
] as const;
export type SettingsSectionId = (typeof SETTINGS_SECTIONS)[number]['id'];

/** The settings each section saves (Branding's logo goes by its own upload). */
export const SECTION_KEYS = {
  event: [
    'name',
    'tagline',
    'eventStart',
    'eventEnd',
    'autoOpen',
    'autoClose',
    'afterEnd',
    'allowCreateDuringEvent',
  ],
  branding: ['accent'],
  texts: ['aboutMd', 'rulesMd', 'faqMd', 'prizeText'],
  play: ['communityUrl', 'toolsUrl', 'challengeHost', 'challengePort', 'instancesPerTeam'],
  writeups: ['writeups'],
  signin: ['loginMethods', 'registration'],
  integrity: ['submissionRetentionDays'],
} as const satisfies Record<SettingsSectionId, readonly (keyof AdminSettings)[]>;

// Every setting has a section: a new one left out fails the type check here.
type Placed = (typeof SECTION_KEYS)[SettingsSectionId][number];
const everySettingPlaced: Exclude<keyof AdminSettings, Placed | 'logoUrl'> extends never ? true : never =
  true;
void everySettingPlaced;

/** The section an address asks for: a known id, else the first (Event). */
export function sectionOf(asked: string | null): SettingsSectionId {
  return SETTINGS_SECTIONS.find((s) => s.id === asked)?.id ?? 'event';
}
