import { API_TOKEN_PREFIX, adminApi, type ImportResult } from '@ctf/contract';
import { zipBuffer } from '../modules/challenge-archive/archive-packing.js';
import { ArchiveError, readArchivePath } from '../modules/challenge-archive/archive-reader.js';

/** The variable that holds the author's personal API token (made on the site's profile page). */
export const TOKEN_VARIABLE = 'CTF_TOKEN';

/** How long the upload and the site's import may take before the command gives up. */
const REMOTE_TIMEOUT_MS = 120_000;

/** Loopback names, the only ones a token may be sent to over plain http. */
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function isImportResult(value: unknown): value is ImportResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as ImportResult).errors) &&
    Array.isArray((value as ImportResult).created)
  );
}

/**
 * The site's import endpoint under `site` (its address, PUBLIC_URL), or a refusal: a token never
 * leaves in clear text, so plain http is for a site on this machine only.
 */
export function importUrl(site: string, dryRun: boolean): URL | string {
  let base: URL;
  try {
    base = new URL(site);
  } catch {
    return `--remote needs the site's address (https://...), not '${site}'.`;
  }
  if (base.protocol !== 'https:' && !(base.protocol === 'http:' && LOOPBACK.test(base.hostname)))
    return `--remote needs an https:// address (plain http only for localhost): '${site}'.`;
  const url = new URL(adminApi.importChallenges.path, base);
  if (dryRun) url.searchParams.set('dry_run', '1');
  return url;
}

/**
 * `import PATH --remote URL`: reads PATH as the local import does (a ZIP or a folder of challenge
 * folders, with the same checks of its entries), packs it into one ZIP and uploads it to the site's
 * import endpoint with the author's token, so the site checks and imports it exactly as the admin
 * panel's import does. Answers the exit code and the report.
 */
export async function importRemote(
  target: string,
  site: string,
  token: string | undefined,
  dryRun: boolean,
  formatResult: (result: ImportResult, dryRun: boolean) => string,
): Promise<{ code: number; out: string }> {
  if (!token) {
    return {
      code: 2,
      out: `Set ${TOKEN_VARIABLE} to a personal API token (profile page, API tokens) of an account that may import challenges.\n`,
    };
  }
  if (!token.startsWith(API_TOKEN_PREFIX))
    return {
      code: 2,
      out: `${TOKEN_VARIABLE} is not a personal API token (they start with ${API_TOKEN_PREFIX}).\n`,
    };
  const url = importUrl(site, dryRun);
  if (typeof url === 'string') return { code: 2, out: `${url}\n` };
  let files;
  try {
    files = await readArchivePath(target);
  } catch (err) {
    if (err instanceof ArchiveError) return { code: 1, out: `error ${err.file}: ${err.message}\n` };
    throw err;
  }
  const zip = await zipBuffer([...files].map(([name, content]) => ({ name, content })));
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), 'challenges.zip');
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
      redirect: 'error',
      signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS),
    });
  } catch (err) {
    return { code: 1, out: `Could not reach ${url.origin}: ${(err as Error).message}\n` };
  }
  const body: unknown = await res.json().catch(() => null);
  if (isImportResult(body))
    return { code: body.errors.length > 0 || !res.ok ? 1 : 0, out: formatResult(body, dryRun) };
  const message =
    typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
      ? (body as { message: string }).message
      : res.statusText;
  return { code: 1, out: `The site refused the import (${res.status}): ${message}\n` };
}
