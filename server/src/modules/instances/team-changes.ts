import type { AppContext } from '../../context.js';
import { SYSTEM_ACTOR, recordAudit } from '../audit/audit.service.js';
import {
  deleteInstance,
  findInstanceDefinition,
  listCompetitorInstances,
  markStopping,
  setStopFailed,
} from './instances.repo.js';
import { portsOf } from './ports.js';
import { driverOf } from './runtime.js';

/**
 * A user who joins, leaves or is removed from a team takes nothing of the old competitor along:
 * in the team change's own transaction, every instance of the competitor they left is marked
 * 'stopping' (no one renews or reaches it through the site any more; a solo instance carrying the
 * player's old flag never lives beside the team's), with its audit row; after the commit its
 * container goes. A stop the engine cannot finish now is failed and finished by the janitor.
 */
export function settleInstancesOnTeamChanges(ctx: AppContext): void {
  ctx.domainEvents.on(
    'membership.changed',
    async ({ left }, trx) => {
      const at = ctx.clock.now();
      // A failed start runs nothing: it stays for the admins to read (and Start replaces it).
      for (const row of await listCompetitorInstances(trx, left, ['starting', 'running'])) {
        if (!(await markStopping(trx, row.id))) continue;
        const challenge =
          row.challenge_id === null ? null : await findInstanceDefinition(trx, row.challenge_id);
        await recordAudit(trx, {
          actor: SYSTEM_ACTOR,
          action: 'instance.stop',
          target: `instance of '${challenge?.name ?? '(deleted)'}' for ${left.kind} #${left.id}`,
          details: { reason: 'a member left or joined: the old competitor’s instance goes' },
          at,
        });
      }
    },
    { phase: 'transaction' },
  );
  ctx.domainEvents.on('membership.changed', async ({ left }) => {
    const db = ctx.database.db;
    for (const row of await listCompetitorInstances(db, left, ['stopping'])) {
      try {
        await driverOf(ctx).remove(row.id, portsOf(row));
        await deleteInstance(db, row.id);
      } catch (err) {
        await setStopFailed(db, row.id, `The stop did not finish: ${(err as Error).message}`);
      }
    }
  });
}
