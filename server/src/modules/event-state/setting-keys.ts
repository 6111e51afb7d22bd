/**
 * How the event's state is stored: rows of the key-value `settings` table. The event-state module
 * reads them; the modules that save them (settings, site, scoreboard) write them through its
 * storage functions with these keys.
 */
export const SETTING_PREFIX = 'setting:';
/** A Markdown setting's rendered, sanitised HTML (written with the setting). */
export const HTML_PREFIX = 'html:';
/** The admin's site switch ('true' / 'false'). */
export const ACTIVATED_KEY = 'site_activated';
/** The logo's type and hash: what the read model needs. */
export const LOGO_META_KEY = 'logo';
/** The logo's bytes (base64): read only when the logo itself is fetched. */
export const LOGO_DATA_KEY = 'logo_data';
/** The stored freeze: absent when never set (FREEZE_AT applies), '' when lifted. */
export const FREEZE_KEY = 'scoreboard_freeze_at';

/** The settings that hold Markdown, kept with their HTML. */
export const MARKDOWN_KEYS = ['aboutMd', 'rulesMd', 'faqMd'] as const;
export type MarkdownKey = (typeof MARKDOWN_KEYS)[number];
