import { adminApi, type AckResponse } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi, fetchData, request } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** GET /api/admin/ctf/get_uploads: stored file names. */
export function useUploads() {
  return useQuery({ queryKey: queryKeys.admin('uploads'), queryFn: () => fetchData(adminApi.getUploads) });
}

/** POST /api/admin/ctf/delete_file {filename}. */
export const deleteFile = (filename: string) => callApi(adminApi.deleteFile, { filename });

/**
 * POST /api/admin/ctf/upload: one file per request in the multipart field 'file'. The browser sets
 * the multipart boundary and the Origin header itself. Throws NetworkError when nothing answers.
 */
export function uploadFile(file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return request<AckResponse | undefined>(adminApi.upload.path, {
    method: 'POST',
    body: form,
    credentials: 'include',
  });
}
