import { nameKey, type AckResponse } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/schema.js';
import { DomainError, badInput, notFound } from '../../lib/errors.js';
import { constantTimeEqual } from '../../lib/crypto.js';
import { recordAudit, type AuditActor } from '../audit/audit.service.js';
import { findCompetitorByName, findPerTeamChallenge } from './team-flags.repo.js';
import { teamFlag, teamFlagKey } from './team-flags.js';

/** A competitor's per-team flag of one challenge, derived now (nothing derived is stored). */
async function derive(
  ctx: AppContext,
  db: Executor,
  challengeId: number,
  competitorName: string,
): Promise<{ challenge: { id: number; name: string }; competitor: string; flag: string }> {
  const challenge = await findPerTeamChallenge(db, challengeId);
  if (!challenge) throw notFound('Challenge not found');
  if (challenge.per_team !== 1 || challenge.base === null)
    throw badInput(`Invalid challenge: '${challenge.name}' has no per-team flags`);
  const competitor = await findCompetitorByName(db, nameKey(competitorName));
  if (!competitor) throw notFound(`No team or user named '${competitorName}'.`);
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
  input: { challengeId: number; competitor: string },
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
  query: { challenge: number; team: string },
): Promise<{ challenge: string; team: string; flag: string }> {
  const found = await derive(ctx, ctx.database.db, query.challenge, query.team);
  return { challenge: String(found.challenge.id), team: found.competitor, flag: found.flag };
}
