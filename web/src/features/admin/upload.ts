import { UI_TEXT, adminApi } from '@ctf/contract';
import { NetworkError, type ApiResult } from '../../lib/api';
import type { AckResponse } from '@ctf/contract';

/** One file's outcome in the upload summary. */
export interface UploadResult {
  name: string;
  success: boolean;
  message: string;
}

/** Names of chosen files that are not ZIPs by MIME type or name (docs/product.md §5). */
export function nonZipNames(files: readonly File[]): string[] {
  return files.filter((f) => !adminApi.looksLikeZip(f.name, f.type)).map((f) => f.name);
}

/**
 * Uploads the files one request each, in order. Resolves null when not one request got an answer
 * (a total failure: 'Upload failed'); otherwise each file's tick or cross and message.
 */
export async function uploadEach(
  files: readonly File[],
  send: (file: File) => Promise<ApiResult<AckResponse | undefined>>,
): Promise<UploadResult[] | null> {
  const results: UploadResult[] = [];
  let answered = 0;
  for (const file of files) {
    try {
      const r = await send(file);
      answered += 1;
      if (r.ok && r.data?.acknowledge)
        results.push({ name: file.name, success: true, message: r.data.message });
      else {
        const message = r.ok ? r.data?.message : r.message;
        results.push({ name: file.name, success: false, message: message || UI_TEXT.errorOccured });
      }
    } catch (err) {
      if (!(err instanceof NetworkError)) throw err;
      console.error(err);
      results.push({ name: file.name, success: false, message: UI_TEXT.uploadFailed });
    }
  }
  return answered === 0 ? null : results;
}

/** docs/product.md §8: green when all succeeded, orange when some, red when none. */
export function summaryVariant(results: readonly UploadResult[]): 'success' | 'warning' | 'danger' {
  const ok = results.filter((r) => r.success).length;
  if (ok === results.length) return 'success';
  return ok === 0 ? 'danger' : 'warning';
}
