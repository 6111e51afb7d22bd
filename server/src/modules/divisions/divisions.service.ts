import { DIVISION_MESSAGES, nameKey, type Division } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { Executor, UserRow } from '../../db/schema.js';
import { DomainError, badInput, conflict, forbidden } from '../../lib/errors.js';
import { CachedValue } from '../../lib/invalidation.js';
import { recordAudit, type AuditActor } from '../audit/audit.service.js';
import {
  hasSolvesOfTeam,
  hasSolvesOfUser,
  listDivisionRows,
  lockTeamForDivision,
  lockUserForDivision,
  replaceDivisionRows,
  setUserDivision,
  divisionsOfUsers,
} from './divisions.repo.js';

/**
 * Divisions (issue 19, decision 0008). Optional: with none defined every answer is what it was
 * before they existed. The set is read once into memory and dropped through the bus ('site') when
 * an admin saves it, so the board, site info and the filters never read a row for it.
 */

export interface KnownDivision {
  id: number;
  name: string;
  emailDomains: string[];
}

export interface DivisionState {
  /** In the admins' order. */
  list: KnownDivision[];
  byKey: Map<string, KnownDivision>;
  byId: Map<number, KnownDivision>;
}

const caches = new WeakMap<AppContext, CachedValue<DivisionState>>();

export async function getDivisionState(ctx: AppContext): Promise<DivisionState> {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new CachedValue(ctx.bus, ['site'], async () => {
      const rows = await listDivisionRows(ctx.database.db);
      const list = rows.map((r) => ({
        id: r.id,
        name: r.name,
        emailDomains: r.email_domains === '' ? [] : r.email_domains.split(','),
      }));
      return {
        list,
        byKey: new Map(list.map((d, i) => [rows[i]!.name_key, d])),
        byId: new Map(list.map((d) => [d.id, d])),
      };
    });
    caches.set(ctx, cache);
  }
  return cache.get();
}

/** The admin's editor: every division with its domains, in order. */
export async function listDivisions(ctx: AppContext): Promise<Division[]> {
  return (await getDivisionState(ctx)).list.map((d) => ({ name: d.name, emailDomains: d.emailDomains }));
}

/**
 * The division a `?division=` filter names: undefined when the query names none, or when the site
 * has no divisions (the parameter is ignored then, as before divisions existed); a name the site
 * does not define is refused, naming the parameter.
 */
export async function resolveDivisionFilter(
  ctx: AppContext,
  name: string | undefined,
): Promise<KnownDivision | undefined> {
  if (name === undefined) return undefined;
  const state = await getDivisionState(ctx);
  if (state.list.length === 0) return undefined;
  const found = state.byKey.get(nameKey(name));
  if (!found) throw badInput(`Invalid division: ${DIVISION_MESSAGES.unknown}`);
  return found;
}

/** The name of a user's division for user info: undefined (no field) while the site has none. */
export function divisionNameOf(state: DivisionState, divisionId: number | null): string | null | undefined {
  if (state.list.length === 0) return undefined;
  return divisionId === null ? null : (state.byId.get(divisionId)?.name ?? null);
}

/**
 * Replaces the set (admin only), with its audit row in the same transaction. A division kept by
 * name (ignoring case) keeps its members even when its domains change (the domains are checked
 * when a user picks); the members of a removed division are left with none: they stay on the
 * whole board, leave every division's, and (the lock after a first solve holding) may pick again
 * only if they have not solved yet.
 */
export async function saveDivisions(
  ctx: AppContext,
  divisions: readonly Division[],
  actor: AuditActor,
): Promise<Division[]> {
  const before = await listDivisions(ctx);
  const wanted = divisions.map((d) => ({
    name: d.name,
    name_key: nameKey(d.name),
    email_domains: [...new Set(d.emailDomains)].join(','),
  }));
  await ctx.database.transaction(async (trx) => {
    const { removed, usersCleared } = await replaceDivisionRows(trx, wanted);
    await recordAudit(trx, {
      actor,
      action: 'divisions.update',
      target: 'divisions',
      details: {
        before,
        after: divisions.map((d) => ({ name: d.name, emailDomains: [...new Set(d.emailDomains)] })),
        removed: removed.map((d) => d.name),
        usersCleared,
      },
      at: ctx.clock.now(),
    });
  });
  // 'site': the set itself (site info, filters); 'users': who is in which division (the boards,
  // user info and the kept sessions' rows).
  ctx.bus.publish('site');
  ctx.bus.publish('users');
  return listDivisions(ctx);
}

/** Whether an e-mail address is in one of a division's domains (or the division has none). */
export function emailAllowed(division: KnownDivision, email: string): boolean {
  if (division.emailDomains.length === 0) return true;
  const at = email.lastIndexOf('@');
  if (at < 1) return false;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  return division.emailDomains.includes(domain);
}

/**
 * The caller picks a division (null: none). Refused once they have a solve; a team plays in its
 * leader's division, so a member cannot change theirs, and a leader only while alone on a team
 * with no solves (the team follows). One transaction with the user's (and team's) row locked, so
 * a first solve, a join or a second change racing with it is ordered before or after it.
 */
export async function pickDivision(
  ctx: AppContext,
  user: UserRow,
  name: string | null,
): Promise<string | null> {
  const state = await getDivisionState(ctx);
  if (state.list.length === 0) throw badInput(`Invalid division: ${DIVISION_MESSAGES.unknown}`);
  let target: KnownDivision | null = null;
  if (name !== null) {
    target = state.byKey.get(nameKey(name)) ?? null;
    if (!target) throw badInput(`Invalid division: ${DIVISION_MESSAGES.unknown}`);
  }
  const postgres = ctx.database.dialect === 'postgres';
  const changed = await ctx.database.transaction(async (trx) => {
    const row = await lockUserForDivision(trx, user.id, postgres);
    if (!row) throw new DomainError('unauthenticated', 'Unauthorized');
    const targetId = target?.id ?? null;
    if (row.division_id === targetId) return false;
    if (target && !emailAllowed(target, row.email)) throw forbidden(DIVISION_MESSAGES.emailNotAllowed);
    if (await hasSolvesOfUser(trx, user.id)) throw conflict(DIVISION_MESSAGES.lockedAfterSolve);
    if (row.team_id !== null) {
      const team = await lockTeamForDivision(trx, row.team_id, postgres);
      if (team && (team.leader_id !== user.id || team.member_count > 1))
        throw conflict(DIVISION_MESSAGES.teamDecides);
      if (team && (await hasSolvesOfTeam(trx, team.id))) throw conflict(DIVISION_MESSAGES.teamHasSolves);
    }
    await setUserDivision(trx, user.id, targetId);
    return true;
  });
  if (changed) ctx.bus.publish('users');
  return target?.name ?? null;
}

/** The divisions of some users (a joiner and a team's leader), read fresh in the caller's transaction. */
export async function readUserDivisions(
  db: Executor,
  userIds: readonly number[],
): Promise<Map<number, number | null>> {
  return divisionsOfUsers(db, userIds);
}
