import { awardsApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi, fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** GET /api/admin/awards: every award, newest first. */
export function useAdminAwards() {
  return useQuery({ queryKey: queryKeys.admin('awards'), queryFn: () => fetchData(awardsApi.listAwards) });
}

/** Who gets an award: a user or a team, by id. */
export type AwardRecipient = { kind: 'user' | 'team'; id: string };

/**
 * POST /api/admin/awards {user_id | team_id, points, reason}. It answers the new award's `{_id}`;
 * the panel's message area takes an acknowledgement, so a success becomes one.
 */
export async function giveAward(to: AwardRecipient, points: number, reason: string) {
  const body = to.kind === 'user' ? { user_id: to.id, points, reason } : { team_id: to.id, points, reason };
  const result = await callApi(awardsApi.giveAward, body);
  return result.ok ? { ...result, data: { acknowledge: true, message: 'Award given' } } : result;
}

/** POST /api/admin/awards/delete {award_id}. */
export const deleteAward = (awardId: string) => callApi(awardsApi.deleteAward, { award_id: awardId });
