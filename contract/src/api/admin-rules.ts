/**
 * The admin panel's zod-free rules and texts (file names, ZIP detection, confirmations), shared by
 * the server's checks and the web's panel; api/admin.ts re-exports them as part of adminApi.
 */
import { FILE_NAME_MAX_LENGTH } from '../rules/constants.js';

/** MIME types browsers give ZIP archives (Windows says x-zip-compressed). */
export const ZIP_MIME_TYPES: readonly string[] = [
  'application/zip',
  'application/x-zip-compressed',
  'application/x-zip',
  'application/zip-compressed',
  'multipart/x-zip',
];

/** docs/product.md §5: a chosen file counts as a ZIP by its MIME type or a .zip name (the server also checks its bytes). */
export function looksLikeZip(name: string, type: string): boolean {
  return name.toLowerCase().endsWith('.zip') || ZIP_MIME_TYPES.includes(type.toLowerCase());
}

/** Characters a stored file name may use: it becomes a file on disk and a download URL. */
export const FILE_NAME_PATTERN = /^[A-Za-z0-9 ._()-]+$/;

/**
 * Why a file name cannot be stored as it is, or null when it can. Names are refused rather than
 * silently renamed, so what the admin attaches to a challenge is exactly what they uploaded.
 */
export function fileNameProblem(name: string): string | null {
  if (name === '') return 'The file has no name.';
  if (/[/\\]/.test(name)) return 'The file name must not contain path parts (/ or \\).';
  if (name.length > FILE_NAME_MAX_LENGTH)
    return `The file name must be at most ${FILE_NAME_MAX_LENGTH} characters.`;
  if (name.startsWith('.')) return 'The file name must not begin with a dot.';
  if (name.trim() !== name) return 'The file name must not begin or end with a space.';
  if (!FILE_NAME_PATTERN.test(name)) {
    return 'The file name may only use letters, digits, spaces and . _ - ( ) characters.';
  }
  return null;
}

/** docs/product.md §5 delete confirmations of the admin panel. */
export type DeletableThing = 'user' | 'team' | 'admin' | 'challenge' | 'file' | 'award';
export const confirmDeleteText = (thing: DeletableThing): string =>
  `Are you sure you want to delete this ${thing}?`;

/** docs/product.md §8 upload summary, e.g. 'Uploaded 1 of 2 files successfully.' */
export const uploadSummaryText = (succeeded: number, total: number): string =>
  `Uploaded ${succeeded} of ${total} files successfully.`;

/** How many of a refused import's errors its message spells out (the rest are counted). */
export const IMPORT_ERRORS_IN_MESSAGE = 3;

/**
 * A refused import's message: the count, then the reasons themselves (file, line, message), so a
 * page that shows only the message (the set-up checklist's sample challenges) names why, e.g.
 * "Nothing was imported: 1 error. first-steps/challenge.yml, line 1: Challenge creation is
 * currently disabled during the event."
 */
export function importRefusedText(
  errors: readonly { file: string; line: number | null; message: string }[],
): string {
  const n = errors.length;
  const shown = errors.slice(0, IMPORT_ERRORS_IN_MESSAGE).map((e) => {
    const where = [e.file, e.line === null ? '' : `line ${e.line}`].filter((w) => w !== '').join(', ');
    return where === '' ? e.message : `${where}: ${e.message}`;
  });
  const more = n > shown.length ? ` (and ${n - shown.length} more)` : '';
  return [`Nothing was imported: ${n} ${n === 1 ? 'error' : 'errors'}.`, ...shown].join(' ') + more;
}
