/**
 * The settings' pure rules (no zod), shared by the server and the web's entry of the contract.
 */
/** What play does once the end time has passed (docs/product.md §15: decided from the clock at read time). */
export const AFTER_END_MODES = ['open', 'closed', 'practice'] as const;
export type AfterEnd = (typeof AFTER_END_MODES)[number];

export const SETTINGS_LIMITS = {
  nameMax: 100,
  taglineMax: 200,
  markdownMax: 20_000,
  prizeTextMax: 100,
  urlMax: 500,
  hostMax: 253,
  /** The longest a wrong attempt may be kept (days; 0 keeps them for ever). */
  retentionDaysMax: 3650,
  /** The logo's largest size in bytes. */
  logoMaxBytes: 1024 * 1024,
} as const;

/** The logo's accepted types, recognised by their first bytes (never by the file's name). */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

/** The logo's type from its first bytes, or null when it is none of PNG, JPEG, WebP. */
export function sniffLogoType(bytes: Uint8Array): LogoType | null {
  const b = (i: number) => bytes[i] ?? -1;
  if (b(0) === 0x89 && b(1) === 0x50 && b(2) === 0x4e && b(3) === 0x47 && b(4) === 0x0d && b(5) === 0x0a)
    return 'image/png';
  if (b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff) return 'image/jpeg';
  const ascii = (from: number, s: string) => [...s].every((c, i) => b(from + i) === c.charCodeAt(0));
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  return null;
}
