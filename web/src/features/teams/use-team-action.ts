import { DELAYS_MS } from '@ctf/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { ApiResult } from '../../lib/api';
import { useRefreshTeam } from './api/refresh';
import { teamMessageFor, type TeamAction, type TeamMessage } from './team-message';

/** Actions after which the team page reloads its data (docs/product.md §4). */
const RELOAD_AFTER: readonly TeamAction[] = ['leave', 'remove', 'accept', 'update'];

/**
 * Runs one team action: shows the server's message, then reloads the team page after
 * DELAYS_MS.afterTeamAction, or after a successful creation goes to /profile?mode=1 after
 * DELAYS_MS.afterTeamCreate. A network failure is only logged (docs/product.md §8).
 */
export function useTeamAction() {
  const [message, setMessage] = useState<TeamMessage | null>(null);
  const [busy, setBusy] = useState(false);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const refresh = useRefreshTeam();
  const navigate = useNavigate();

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);

  const later = useCallback((ms: number, fn: () => void) => {
    timers.current.push(setTimeout(fn, ms));
  }, []);

  const run = useCallback(
    async (action: TeamAction, call: () => Promise<ApiResult<{ message?: string }>>) => {
      setBusy(true);
      let result: ApiResult<{ message?: string }>;
      try {
        result = await call();
      } catch (err) {
        console.error(err);
        return;
      } finally {
        setBusy(false);
      }
      setMessage(teamMessageFor(action, result));
      if (action === 'create') {
        if (result.ok) {
          later(DELAYS_MS.afterTeamCreate, () => {
            void refresh();
            void navigate('/profile?mode=1');
          });
        }
      } else if (RELOAD_AFTER.includes(action)) {
        later(DELAYS_MS.afterTeamAction, () => void refresh());
      } else if (result.ok) {
        void refresh();
      }
    },
    [later, navigate, refresh],
  );

  return { message, busy, run };
}
