import {
  INSTANCE_LIMITS,
  INSTANCE_MESSAGES,
  MESSAGES,
  instanceAddress,
  instanceUrl,
  type AckResponse,
  type AdminInstance,
  type InstanceDefinition,
  type InstanceState,
  counted,
} from '@ctf/contract';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../db/schema.js';
import { DomainError, notFound } from '../../lib/errors.js';
import { toApiId } from '../../lib/ids.js';
import { recordAudit, type AuditActor } from '../audit/audit.service.js';
import {
  competitorOfUser,
  listAllFlags,
  openChallengeForSubmission,
  teamFlagKey,
} from '../challenges/challenges.service.js';
import { teamFlag } from '../challenges/team-flags.js';
import { afterEndMode, readEventState } from '../event-state/event-state.service.js';
import { engineMessage } from './docker-driver.js';
import { InstanceStartError } from './driver.js';
import { launchInstance, type LaunchPlan } from './launcher.js';
import { claimPorts, portsOf } from './ports.js';
import { boundedDefinition } from './policy.js';
import { driverOf } from './runtime.js';
import {
  countLiveInstances,
  currentCompetitor,
  deleteInstance,
  findInstance,
  findInstanceById,
  findInstanceDefinition,
  insertInstance,
  listInstancesForAdmin,
  lockCompetitor,
  markStopping,
  setExpiry,
  setPorts,
  setStopFailed,
  type CompetitorKey,
  type InstanceRow,
} from './instances.repo.js';

export { portsOf } from './ports.js';

/** The stored definition (JSON text) as the contract types it, or null. */
export function parseDefinition(text: string | null): InstanceDefinition | null {
  return text === null ? null : (JSON.parse(text) as InstanceDefinition);
}

/** What a failed engine call says: the deadline's own message, or the engine's. */
function engineFailure(err: unknown): string {
  return err instanceof InstanceStartError ? err.message : engineMessage(err);
}

const targetOf = (challenge: string, competitor: CompetitorKey) =>
  `instance of '${challenge}' for ${competitor.kind} #${competitor.id}`;

const actorOf = (user: UserRow): AuditActor => ({ id: user.id, username: user.username });

async function challengeHost(ctx: AppContext): Promise<string> {
  return (await readEventState(ctx)).settings.challengeHost;
}

function present(row: InstanceRow, host: string): InstanceState {
  return {
    status: row.state === 'running' ? 'running' : 'starting',
    host,
    ports: portsOf(row).map((p) => ({
      port: p.hostPort,
      protocol: p.protocol,
      ...(p.protocol === 'http' ? { url: instanceUrl(host, p.hostPort, p.token) } : {}),
    })),
    expiresAt: new Date(row.expires_at).toISOString(),
  };
}

/** What a player reads of its row: a failed start is said so (the admin panel has the reason). */
function presentForPlayer(row: InstanceRow | undefined, host: string): InstanceState {
  if (!row || row.state === 'stopping') throw notFound(INSTANCE_MESSAGES.none);
  if (row.state === 'failed') throw new DomainError('unavailable', INSTANCE_MESSAGES.failed);
  return present(row, host);
}

/**
 * The gate of every player call: the challenge is open to this user as for a flag (site active,
 * released, active, prerequisites solved) and has an instance definition.
 */
async function openInstanceChallenge(
  ctx: AppContext,
  user: UserRow,
  challengeId: number,
): Promise<{ name: string; definition: InstanceDefinition }> {
  await openChallengeForSubmission(ctx, user, challengeId);
  const found = await findInstanceDefinition(ctx.database.db, challengeId);
  const stored = parseDefinition(found?.instance ?? null);
  if (!found || !stored) throw notFound(INSTANCE_MESSAGES.notInstanceChallenge);
  return { name: found.name, definition: boundedDefinition(stored, ctx.config.instances.policy) };
}

/** The flag the container carries: the competitor's own per-team flag, else the static flag. */
async function flagFor(
  ctx: AppContext,
  challengeId: number,
  competitor: CompetitorKey,
): Promise<string | null> {
  const { flags, perTeam } = await listAllFlags(ctx);
  const first = (flags.get(challengeId) ?? []).find((f) => f.type !== 'regex');
  if (!first) return null;
  if (perTeam.has(challengeId)) {
    return teamFlag(teamFlagKey(ctx.config.sessionSecret), challengeId, first.content, competitor);
  }
  return first.content;
}

/**
 * Starts the competitor's instance of a challenge (POST /api/ctf/instance/start): one per
 * competitor and challenge (two members at once make one: the unique index decides), at most the
 * per-team setting at once, starts rate-limited per competitor. Answers at once with 'starting';
 * the container is made off the request (launcher.ts) and the row turns 'running' once its port
 * answers. A failed start is replaced by the next Start.
 */
export async function startInstance(
  ctx: AppContext,
  user: UserRow,
  challengeId: number,
): Promise<InstanceState> {
  const { name, definition } = await openInstanceChallenge(ctx, user, challengeId);
  // Play closed after the end (the after-event setting 'closed'): no new instance either.
  if (user.is_admin !== 1 && (await afterEndMode(ctx)) === 'closed')
    throw new DomainError('forbidden', MESSAGES.eventClosed);
  const state = await readEventState(ctx);
  const host = state.settings.challengeHost;
  const db = ctx.database.db;
  const postgres = ctx.database.dialect === 'postgres';
  // The stored membership, not the session's copy: a team change a moment ago counts.
  const competitor = (await currentCompetitor(db, user.id, false)) ?? competitorOfUser(user);

  const existing = await findInstance(db, challengeId, competitor);
  if (existing && existing.state !== 'failed' && existing.state !== 'stopping')
    return present(existing, host);

  const limit = await ctx.limiter.hit(
    `instance-start:${competitor.kind}:${competitor.id}`,
    INSTANCE_LIMITS.startsPerWindow,
    INSTANCE_LIMITS.startWindowMs,
  );
  if (!limit.allowed)
    throw new DomainError(
      'rate_limited',
      `Too many instance starts: try again in ${counted(limit.retryAfterSeconds, 'second')}.`,
      limit.retryAfterSeconds,
    );

  const now = ctx.clock.now().getTime();
  const lifetimeMs = definition.lifetimeMinutes * 60_000;
  const started = await ctx.database.transaction(async (trx) => {
    const stored = await currentCompetitor(trx, user.id, postgres);
    if (!stored || stored.kind !== competitor.kind || stored.id !== competitor.id)
      throw new DomainError('conflict', INSTANCE_MESSAGES.teamChanged);
    await lockCompetitor(trx, competitor, postgres);
    const current = await findInstance(trx, challengeId, competitor);
    if (current && current.state !== 'failed') return { row: current, fresh: false };
    if (current) await deleteInstance(trx, current.id);
    const live = await countLiveInstances(trx, competitor);
    const cap = state.settings.instancesPerTeam;
    if (live >= cap) throw new DomainError('conflict', INSTANCE_MESSAGES.perTeamLimit(cap));
    const row = {
      challenge_id: challengeId,
      competitor_kind: competitor.kind,
      competitor_id: competitor.id,
      started_by: user.id,
      state: 'starting',
      ports: '[]',
      created_at: now,
      expires_at: now + lifetimeMs,
      max_expires_at: now + lifetimeMs * INSTANCE_LIMITS.maxLifetimes,
    };
    const id = await insertInstance(trx, row);
    if (id === undefined) return { row: (await findInstance(trx, challengeId, competitor))!, fresh: false };
    const ports = await claimPorts(ctx, trx, id, definition.ports);
    await setPorts(trx, id, JSON.stringify(ports));
    await recordAudit(trx, {
      actor: actorOf(user),
      action: 'instance.start',
      target: targetOf(name, competitor),
      details: { image: definition.image, ports: ports.map((p) => p.hostPort) },
      at: new Date(now),
    });
    return {
      row: { ...row, id, ports: JSON.stringify(ports), container_id: null, error: null } as InstanceRow,
      fresh: true,
    };
  });
  if (started.fresh) {
    const flag = await flagFor(ctx, challengeId, competitor);
    const plan: LaunchPlan = {
      instanceId: started.row.id,
      challengeId,
      competitor: `${competitor.kind}:${competitor.id}`,
      definition,
      flag,
      ports: portsOf(started.row),
      expiresAt: started.row.max_expires_at,
      challengeHost: host,
    };
    launchInstance(ctx, plan);
  }
  return present(started.row, host);
}

/** The competitor's instance of a challenge (GET /api/ctf/instance); 404 when it has none. */
export async function getInstance(
  ctx: AppContext,
  user: UserRow,
  challengeId: number,
): Promise<InstanceState> {
  await openInstanceChallenge(ctx, user, challengeId);
  const row = await findInstance(ctx.database.db, challengeId, competitorOfUser(user));
  return presentForPlayer(row, await challengeHost(ctx));
}

/**
 * Renews a running instance: its time left is the lifetime again, but never past the most an
 * instance may live (INSTANCE_LIMITS.maxLifetimes lifetimes from its start).
 */
export async function renewInstance(
  ctx: AppContext,
  user: UserRow,
  challengeId: number,
): Promise<InstanceState> {
  const { name, definition } = await openInstanceChallenge(ctx, user, challengeId);
  const competitor = competitorOfUser(user);
  const host = await challengeHost(ctx);
  const now = ctx.clock.now();
  return ctx.database.transaction(async (trx) => {
    const row = await findInstance(trx, challengeId, competitor);
    presentForPlayer(row, host);
    if (row!.state !== 'running') throw new DomainError('conflict', INSTANCE_MESSAGES.notRenewable);
    const expiresAt = Math.min(now.getTime() + definition.lifetimeMinutes * 60_000, row!.max_expires_at);
    if (expiresAt <= row!.expires_at) throw new DomainError('conflict', INSTANCE_MESSAGES.renewLimit);
    if (!(await setExpiry(trx, row!.id, expiresAt)))
      throw new DomainError('conflict', INSTANCE_MESSAGES.notRenewable);
    await recordAudit(trx, {
      actor: actorOf(user),
      action: 'instance.renew',
      target: targetOf(name, competitor),
      details: { expires_at: new Date(expiresAt).toISOString() },
      at: now,
    });
    return present({ ...row!, expires_at: expiresAt }, host);
  });
}

/**
 * Removes an instance: marked 'stopping' first (so nothing renews or stops it twice), then the
 * container and network, then the row. A crash in between leaves a 'stopping' row the janitor
 * finishes. Answers false when another call is already stopping it.
 */
export async function removeInstance(
  ctx: AppContext,
  row: InstanceRow,
  audit: { actor: AuditActor; action: 'instance.stop' | 'instance.expire'; reason?: string },
): Promise<boolean> {
  const db = ctx.database.db;
  const failed = row.state === 'failed';
  if (!(await markStopping(db, row.id))) return false;
  // A failed start's container was removed when it failed (and an orphan goes at the next sweep).
  if (!failed) {
    try {
      await driverOf(ctx).remove(row.id, portsOf(row));
    } catch (err) {
      const message = engineFailure(err);
      await setStopFailed(db, row.id, `The stop did not finish: ${message}`);
      throw new DomainError('unavailable', message);
    }
  }
  const challenge = row.challenge_id === null ? null : await findInstanceDefinition(db, row.challenge_id);
  await ctx.database.transaction(async (trx) => {
    await deleteInstance(trx, row.id);
    await recordAudit(trx, {
      actor: audit.actor,
      action: audit.action,
      target: targetOf(challenge?.name ?? '(deleted)', { kind: row.competitor_kind, id: row.competitor_id }),
      details: {
        ...(audit.reason ? { reason: audit.reason } : {}),
        age_seconds: Math.round((ctx.clock.now().getTime() - row.created_at) / 1000),
      },
      at: ctx.clock.now(),
    });
  });
  return true;
}

/** The player's Stop (POST /api/ctf/instance/stop). */
export async function stopInstance(
  ctx: AppContext,
  user: UserRow,
  challengeId: number,
): Promise<{ message: string }> {
  await openInstanceChallenge(ctx, user, challengeId);
  const row = await findInstance(ctx.database.db, challengeId, competitorOfUser(user));
  if (!row || row.state === 'stopping') throw notFound(INSTANCE_MESSAGES.none);
  await removeInstance(ctx, row, { actor: actorOf(user), action: 'instance.stop' });
  return { message: INSTANCE_MESSAGES.stopped };
}

/**
 * Every instance for the admin panel: who, which challenge, since when, where, what state. The
 * address is its team's and the admins' only: another role gets none (`withAddresses` false).
 */
export async function listInstancesAdmin(ctx: AppContext, withAddresses: boolean): Promise<AdminInstance[]> {
  const [rows, host] = await Promise.all([listInstancesForAdmin(ctx.database.db), challengeHost(ctx)]);
  return rows.map((r) => ({
    _id: toApiId(r.id),
    team: r.competitor_name ?? `(removed ${r.competitor_kind} #${r.competitor_id})`,
    challenge: r.challenge_name ?? '(deleted)',
    challenge_id: r.challenge_id === null ? null : toApiId(r.challenge_id),
    state: r.state as AdminInstance['state'],
    created_at: new Date(r.created_at).toISOString(),
    expires_at: new Date(r.expires_at).toISOString(),
    addresses:
      r.state === 'failed' || !withAddresses
        ? []
        : portsOf(r).map((p) => instanceAddress(host, p.hostPort, p.protocol, p.token)),
    error: r.error,
    started_by: r.started_by_name,
  }));
}

/** An admin stops (or dismisses a failed) instance (POST /api/admin/instances/stop). */
export async function adminStopInstance(
  ctx: AppContext,
  actor: AuditActor,
  instanceId: number,
): Promise<AckResponse> {
  const row = await findInstanceById(ctx.database.db, instanceId);
  if (!row) throw notFound(INSTANCE_MESSAGES.unknown);
  await removeInstance(ctx, row, { actor, action: 'instance.stop', reason: 'stopped by an admin' });
  return { acknowledge: true, message: INSTANCE_MESSAGES.adminStopped };
}
