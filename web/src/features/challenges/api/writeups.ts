import { writeupsApi } from '@ctf/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, NetworkError, fetchData, request } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** GET /api/user/writeups: what the caller's competitor handed in (issue 32). */
export function useMyWriteups(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.myWriteups,
    queryFn: () => fetchData(writeupsApi.myWriteups),
    enabled,
  });
}

/** GET /api/info/writeups?challenge_id=ID: the published ones (empty before the event's end). */
export function usePublishedWriteups(challengeId: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.publishedWriteups(challengeId),
    queryFn: () =>
      fetchData({
        ...writeupsApi.publishedWriteups,
        path: `${writeupsApi.publishedWriteups.path}?challenge_id=${encodeURIComponent(challengeId)}`,
      }),
    enabled,
  });
}

export type WriteupHandIn = { url: string } | { file: File };

/**
 * POST /api/ctf/writeup (multipart): `challenge_id` first, so the server checks the gates before
 * it reads a byte of the file, then the link or the file. Throws the server's message.
 */
export function useHandInWriteup(challengeId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (what: WriteupHandIn) => {
      const form = new FormData();
      form.append('challenge_id', challengeId);
      if ('url' in what) form.append('url', what.url);
      else form.append('file', what.file, what.file.name);
      let r;
      try {
        r = await request<{ _id: string }>(writeupsApi.submitWriteup.path, {
          method: 'POST',
          body: form,
          credentials: 'include',
        });
      } catch (err) {
        if (err instanceof NetworkError) throw new ApiError(0, 'The writeup could not be sent: no answer.');
        throw err;
      }
      if (!r.ok) throw new ApiError(r.status, r.message || `Request failed (${r.status})`);
      return r.data;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.myWriteups }),
  });
}
