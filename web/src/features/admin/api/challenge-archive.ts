import { adminApi, type ImportResult } from '@ctf/contract';
import { NetworkError } from '../../../lib/api';

/** The export's download address (a plain link: the browser saves the ZIP it answers). */
export const EXPORT_URL = adminApi.exportChallenges.path;

/**
 * POST /api/admin/ctf/import[?dry_run=1] with the ZIP in the multipart field 'file'. A refused
 * archive answers 400 with the same shape (its errors), so both are read as a result; any other
 * answer becomes a result with its message. Throws NetworkError when nothing answers.
 */
export async function importArchive(file: File, dryRun: boolean): Promise<ImportResult> {
  const form = new FormData();
  form.append('file', file, file.name);
  let res: Response;
  try {
    res = await fetch(`${adminApi.importChallenges.path}${dryRun ? '?dry_run=1' : ''}`, {
      method: 'POST',
      body: form,
      credentials: 'include',
    });
  } catch (err) {
    throw new NetworkError(err instanceof Error ? err.message : 'network error');
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  const obj = (body ?? {}) as Partial<ImportResult>;
  if (Array.isArray(obj.errors) && Array.isArray(obj.created)) return obj as ImportResult;
  return {
    acknowledge: false,
    message:
      typeof obj.message === 'string' && obj.message ? obj.message : `The import failed (${res.status}).`,
    created: [],
    updated: [],
    warnings: [],
    errors: [],
  };
}
