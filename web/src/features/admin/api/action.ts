import { UI_TEXT, type AckResponse } from '@ctf/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ApiResult } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** What the panel's message area shows after an admin action. */
export interface AdminOutcome {
  success: boolean;
  text: string;
}

/**
 * docs/product.md §8 admin actions: acknowledge false shows the server's message in red, a network failure
 * or an empty answer 'Error Occured!', a success the server's message in green.
 */
export async function adminOutcome(
  call: () => Promise<ApiResult<AckResponse | undefined>>,
): Promise<AdminOutcome> {
  let result: ApiResult<AckResponse | undefined>;
  try {
    result = await call();
  } catch (err) {
    console.error(err);
    return { success: false, text: UI_TEXT.errorOccured };
  }
  if (!result.ok) return { success: false, text: result.message || UI_TEXT.errorOccured };
  const data = result.data;
  if (!data || typeof data.acknowledge !== 'boolean') return { success: false, text: UI_TEXT.errorOccured };
  if (!data.acknowledge) return { success: false, text: data.message || UI_TEXT.errorOccured };
  return { success: true, text: data.message || 'Done.' };
}

/**
 * After an admin write: every admin list, and the public views it may have changed (challenge
 * list and detail, leaderboard, site info, the admin's own user info).
 */
export function useRefreshAfterAdminAction() {
  const client = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: ['admin'] }),
      client.invalidateQueries({ queryKey: queryKeys.challenges }),
      client.invalidateQueries({ queryKey: ['challenge'] }),
      client.invalidateQueries({ queryKey: queryKeys.leaderboard }),
      client.invalidateQueries({ queryKey: queryKeys.siteInfo }),
      client.invalidateQueries({ queryKey: queryKeys.teamList }),
      client.invalidateQueries({ queryKey: queryKeys.announcements }),
    ]);
  }, [client]);
}
