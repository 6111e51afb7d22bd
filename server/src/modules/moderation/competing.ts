import type { AckResponse } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { badInput, conflict, notFound } from '../../lib/errors.js';
import { recordAudit, type AuditActor } from '../audit/audit.service.js';
import { findUserCompeting, setUserCompeting } from './moderation.repo.js';

/**
 * Marks a monitor or author as competing, or not (POST /api/admin/set_competing). Staff are left
 * out of every public figure and first blood by the one counting filter (db/counted.ts) unless
 * marked; a player always competes and an admin never does (an admin reads every flag), so only
 * monitors and authors take the mark. A competing author still sees only a player's view of the
 * challenges it does not own. The mark stays with the account across role changes.
 */
export async function setCompeting(
  ctx: AppContext,
  actor: AuditActor,
  userId: number,
  competing: boolean,
): Promise<AckResponse> {
  const at = ctx.clock.now();
  const name = await ctx.database.transaction(async (trx) => {
    const user = await findUserCompeting(trx, userId);
    if (!user) throw notFound('User not found');
    if (user.role === 'player') throw badInput(`'${user.username}' is a player: players always compete.`);
    if (user.role === 'admin')
      throw badInput(`'${user.username}' is an admin: an admin never competes (it reads every flag).`);
    if ((user.competing === 1) === competing)
      throw conflict(`'${user.username}' ${competing ? 'already competes' : 'already does not compete'}.`);
    await setUserCompeting(trx, user.id, competing);
    if (!competing)
      await ctx.domainEvents.emitInTransaction(trx, 'competitor.withdrawn', { name: user.username });
    await recordAudit(trx, {
      actor,
      action: 'user.competing',
      target: `user '${user.username}' (#${user.id})`,
      details: { before: { competing: !competing }, after: { competing } },
      at,
    });
    return user.username;
  });
  // Who counts changed: every public figure is rebuilt, as hiding someone does.
  for (const topic of ['users', 'teams', 'solves'] as const) ctx.bus.publish(topic);
  if (!competing) await ctx.domainEvents.emit('competitor.withdrawn', { name });
  return {
    acknowledge: true,
    message: competing
      ? `'${name}' now competes: their solves count in public.`
      : `'${name}' no longer competes: they are left out of every public list.`,
  };
}
