import type { AckResponse } from '@ctf/contract';
import { useCallback, useState } from 'react';
import type { ApiResult } from '../../lib/api';
import { adminOutcome, useRefreshAfterAdminAction, type AdminOutcome } from './api/action';

/** Runs one admin call, shows its outcome in the panel's message area, and refreshes on success. */
export type AdminAct = (call: () => Promise<ApiResult<AckResponse | undefined>>) => Promise<AdminOutcome>;

export function useAdminAction(): { message: AdminOutcome | null; act: AdminAct } {
  const [message, setMessage] = useState<AdminOutcome | null>(null);
  const refresh = useRefreshAfterAdminAction();
  const act = useCallback<AdminAct>(
    async (call) => {
      const outcome = await adminOutcome(call);
      setMessage(outcome);
      if (outcome.success) await refresh();
      return outcome;
    },
    [refresh],
  );
  return { message, act };
}
