import { instancesApi, type InstanceState } from '@ctf/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, callApi, request, type ApiResult } from '../../../lib/api';

/** What the challenge page knows of the team's instance of one challenge. */
export type InstanceView =
  | { kind: 'none' }
  /** The last start failed (the organisers see why); Start tries again. */
  | { kind: 'failed'; message: string }
  | { kind: 'live'; state: InstanceState };

export const instanceKey = (challengeId: string) => ['instance', challengeId] as const;

/** GET /api/ctf/instance: 404 means none; 503 a failed start. */
async function fetchInstance(challengeId: string): Promise<InstanceView> {
  const path = `${instancesApi.getInstance.path}?challenge_id=${encodeURIComponent(challengeId)}`;
  return instanceViewOf(await request<InstanceState>(path, { method: 'GET', credentials: 'include' }));
}

/**
 * What GET /api/ctf/instance's answer says of the instance: fetched, or carried by a page the
 * server rendered (app/first-view.ts).
 */
export function instanceViewOf(r: ApiResult<InstanceState>): InstanceView {
  if (r.ok) return { kind: 'live', state: r.data };
  if (r.status === 404) return { kind: 'none' };
  if (r.status === 503) return { kind: 'failed', message: r.message || 'The instance could not start.' };
  throw new ApiError(r.status, r.message || `Request failed (${r.status})`);
}

/**
 * The team's instance, polled every second while it is starting (until its port answers) and
 * every 30 s otherwise (a teammate may start or stop it; the janitor may expire it).
 */
export function useInstance(challengeId: string) {
  return useQuery({
    queryKey: instanceKey(challengeId),
    queryFn: () => fetchInstance(challengeId),
    refetchInterval: (q) =>
      q.state.data?.kind === 'live' && q.state.data.state.status === 'starting' ? 1000 : 30_000,
  });
}

type Action = 'start' | 'renew' | 'stop';
const ENDPOINT = {
  start: instancesApi.startInstance,
  renew: instancesApi.renewInstance,
  stop: instancesApi.stopInstance,
} as const;

/** Start, Renew and Stop: each answers the new view, or throws the server's message. */
export function useInstanceAction(challengeId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (action: Action): Promise<InstanceView> => {
      const r = await callApi(ENDPOINT[action], { challenge_id: challengeId });
      if (!r.ok) throw new ApiError(r.status, r.message || `Request failed (${r.status})`);
      return action === 'stop' ? { kind: 'none' } : { kind: 'live', state: r.data as InstanceState };
    },
    onSuccess: (view) => client.setQueryData(instanceKey(challengeId), view),
  });
}
