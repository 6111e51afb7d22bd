import { nameKey, type AckResponse } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/schema.js';
import { DomainError, badInput, conflict, notFound } from '../../lib/errors.js';
import { constantTimeEqual } from '../../lib/crypto.js';
import { recordAudit, type AuditActor } from '../audit/audit.service.js';
import { findPerTeamChallenge, findTeamCompetitor, findUserCompetitor } from './team-flags.repo.js';
import { teamFlag, teamFlagKey } from './team-flags.js';

/** How a caller names a competitor: by id (team or user), or by a name. */
export type CompetitorRef = { teamId: number } | { userId: number } | { name: string };

/**
 * The competitor a reference means. By id, exactly that one. NOTE: by name only when the name
 * means one competitor: team names and usernames are one namespace now, but a database may hold a
 * team named like a user from before, and serving the team's flag for the user's name (or the
 * reverse) hands one competitor another's flag (issue 29), so such a name is refused.
 */
async function findCompetitor(db: Executor, ref: CompetitorRef) {
  if ('teamId' in ref) {
    const team = await findTeamCompetitor(db, { id: ref.teamId });
    if (!team) throw notFound(`No team #${ref.teamId}.`);
    return team;
  }
  if ('userId' in ref) {
    const user = await findUserCompetitor(db, { id: ref.userId });
    if (!user) throw notFound(`No user #${ref.userId}.`);
    return user;
  }
  const key = nameKey(ref.name);
  const [team, user] = await Promise.all([findTeamCompetitor(db, { key }), findUserCompetitor(db, { key })]);
  if (team && user && (team.kind !== user.kind || team.id !== user.id))
    throw conflict(`'${ref.name}' names both a team and a user: ask by team_id or user_id.`);
  const found = team ?? user;
  if (!found) throw notFound(`No team or user named '${ref.name}'.`);
  return found;
}

/** A competitor's per-team flag of one challenge, derived now (nothing derived is stored). */
async function derive(
  ctx: AppContext,
  db: Executor,
  challengeId: number,
  ref: CompetitorRef,
): Promise<{ challenge: { id: number; name: string }; competitor: string; flag: string }> {
  const challenge = await findPerTeamChallenge(db, challengeId);
  if (!challenge) throw notFound('Challenge not found');
  if (challenge.per_team !== 1 || challenge.base === null)
    throw badInput(`Invalid challenge: '${challenge.name}' has no per-team flags`);
  const competitor = await findCompetitor(db, ref);
  const key = teamFlagKey(ctx.config.sessionSecret);
  return {
    challenge: { id: challenge.id, name: challenge.name },
    competitor: competitor.name,
    flag: teamFlag(key, challenge.id, challenge.base, competitor),
  };
}

/**
 * An admin reads a competitor's per-team flag on demand (POST /api/admin/ctf/reveal_team_flag):
 * the audit log records who read whose flag of which challenge, never the flag itself.
 */
export async function revealTeamFlag(
  ctx: AppContext,
  actor: AuditActor,
  input: { challengeId: number; competitor: CompetitorRef },
): Promise<AckResponse & { competitor: string; flag: string }> {
  return ctx.database.transaction(async (trx) => {
    const found = await derive(ctx, trx, input.challengeId, input.competitor);
    await recordAudit(trx, {
      actor,
      action: 'challenge.reveal_team_flag',
      target: `challenge '${found.challenge.name}' (#${found.challenge.id})`,
      details: { competitor: found.competitor },
      at: ctx.clock.now(),
    });
    return {
      acknowledge: true,
      message: `The per-team flag of '${found.competitor}' for '${found.challenge.name}'.`,
      competitor: found.competitor,
      flag: found.flag,
    };
  });
}

/**
 * Checks the admin API token of an author's service (Authorization: Bearer <token>), compared in
 * constant time. No token configured: the endpoint is off (403) for everyone; a missing or wrong
 * token: 401. A session never opens it.
 */
export function checkAdminApiToken(ctx: AppContext, authorization: string | undefined): void {
  const expected = ctx.config.adminApiToken;
  if (expected === null)
    throw new DomainError('forbidden', 'The team-flag API is off: the server has no ADMIN_API_TOKEN.');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!m || !constantTimeEqual(m[1]!, expected))
    throw new DomainError(
      'unauthenticated',
      'A valid admin API token is required (Authorization: Bearer <ADMIN_API_TOKEN>).',
    );
}

/** The service's read (GET /api/admin/ctf/team-flag?challenge=&team=), after checkAdminApiToken. */
export async function serviceTeamFlag(
  ctx: AppContext,
  query: { challenge: number; team?: string; team_id?: number; user_id?: number },
): Promise<{ challenge: string; team: string; flag: string }> {
  const found = await derive(ctx, ctx.database.db, query.challenge, competitorRef(query.team, query));
  return { challenge: String(found.challenge.id), team: found.competitor, flag: found.flag };
}

/** The reference a request's fields make (the contract lets exactly one through). */
export function competitorRef(name: string | undefined, ids: { team_id?: number; user_id?: number }): CompetitorRef {
  if (ids.team_id !== undefined) return { teamId: ids.team_id };
  if (ids.user_id !== undefined) return { userId: ids.user_id };
  return { name: name ?? '' };
}
