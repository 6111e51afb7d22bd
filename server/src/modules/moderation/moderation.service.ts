import {
  nameKey,
  type AckResponse,
  type AdminTeam,
  type AdminUser,
  type ModerateInput,
  type Role,
} from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { badInput, notFound } from '../../lib/errors.js';
import { recordAudit, type AuditActor } from '../audit/audit.service.js';
import { endSessionsOfUsers } from '../auth/sessions.service.js';
import { listTeamsForAdmin } from '../teams/teams.views.js';
import { listUsersOfRole } from '../users/users.service.js';
import {
  findTeamModeration,
  findUserModeration,
  listCompetingUserIds,
  listMemberIds,
  listModerated,
  setModeration,
  type ModerationFlags,
} from './moderation.repo.js';

const PAST: Record<ModerateInput['action'], string> = {
  hide: 'hidden from every public view',
  unhide: 'shown in public views again',
  ban: 'banned: it cannot log in',
  unban: 'no longer banned',
};

/**
 * Hides, shows, bans or unbans a user or a team (POST /api/admin/moderate), reversibly and with a
 * reason, in one transaction with its audit entry. Nothing is deleted: a hidden competitor's
 * solves stay and count again when shown. Hidden ones are left out of every public figure by the
 * filter that leaves out admins (db/counted.ts); a ban ends the sessions of the user (or of the
 * team's members) at once, and login refuses them with the reason (auth/sessions.service.ts).
 * Admins are not moderated: they are never public, and a ban could lock the panel out.
 */
export async function moderate(
  ctx: AppContext,
  actor: AuditActor,
  input: ModerateInput,
): Promise<AckResponse> {
  const at = ctx.clock.now();
  const hiding = input.action === 'hide' || input.action === 'unhide';
  const on = input.action === 'hide' || input.action === 'ban';
  const { label, name } = await ctx.database.transaction(async (trx) => {
    const key = nameKey(input.name);
    const found =
      input.target === 'user' ? await findUserModeration(trx, key) : await findTeamModeration(trx, key);
    const what = input.target === 'user' ? 'User' : 'Team';
    if (!found) throw notFound(`No ${input.target} named '${input.name}'.`);
    if (found.is_admin === 1)
      throw badInput(`'${found.name}' is an admin: remove the admin role first to hide or ban this account.`);
    const table = input.target === 'user' ? 'users' : 'teams';
    await setModeration(trx, table, found.id, {
      ...(hiding ? { hidden: on ? 1 : 0 } : { banned: on ? 1 : 0 }),
      moderation_reason: input.reason === '' ? found.moderation_reason : input.reason,
    });
    // Out of every public view: its first bloods leave the live stream's replay too.
    if (on) await ctx.domainEvents.emitInTransaction(trx, 'competitor.withdrawn', { name: found.name });
    if (input.action === 'ban') {
      const userIds = input.target === 'user' ? [found.id] : await listMemberIds(trx, found.id);
      await endSessionsOfUsers(trx, userIds);
    }
    await recordAudit(trx, {
      actor,
      action: `moderation.${input.action}`,
      target: `${input.target} '${found.name}' (#${found.id})`,
      details: {
        reason: input.reason,
        before: { hidden: found.hidden === 1, banned: found.banned === 1 },
      },
      at,
    });
    return { label: `${what} '${found.name}'`, name: found.name };
  });
  // Hiding and banning change every public figure (scores, ranks, counts): a full rebuild, as a
  // removal does; a ban also ends sessions.
  for (const topic of ['users', 'teams', 'solves', 'sessions'] as const) ctx.bus.publish(topic);
  if (on) await ctx.domainEvents.emit('competitor.withdrawn', { name });
  return { acknowledge: true, message: `${label} is ${PAST[input.action]}.` };
}

const NOT_MODERATED = { hidden: false, banned: false, moderation_reason: null };

function flagsById(rows: readonly ModerationFlags[]) {
  return new Map(
    rows.map((r) => [
      r.id,
      { hidden: r.hidden === 1, banned: r.banned === 1, moderation_reason: r.moderation_reason },
    ]),
  );
}

/** The admin Users tab: every participant with whether they are hidden or banned. */
export async function listUsersForAdmin(ctx: AppContext, viewer: Role): Promise<AdminUser[]> {
  const [users, moderated, competing] = await Promise.all([
    listUsersOfRole(ctx, 'participants', viewer),
    listModerated(ctx.database.db),
    listCompetingUserIds(ctx.database.db),
  ]);
  const flags = flagsById(moderated.users);
  return users.map((u) => ({
    ...u,
    ...(flags.get(Number(u._id)) ?? NOT_MODERATED),
    competing: competing.has(Number(u._id)),
  }));
}

/** The admin Teams tab: every team with whether it is hidden or banned. */
export async function listTeamsWithModeration(ctx: AppContext): Promise<AdminTeam[]> {
  const [teams, moderated] = await Promise.all([listTeamsForAdmin(ctx), listModerated(ctx.database.db)]);
  const flags = flagsById(moderated.teams);
  return teams.map((t) => ({ ...t, ...(flags.get(Number(t._id)) ?? NOT_MODERATED) }));
}
