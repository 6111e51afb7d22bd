import { sql } from 'kysely';
import type { Executor } from '../../db/schema.js';

export interface CompetitorKey {
  kind: 'team' | 'user';
  id: number;
}

export interface InstanceRow {
  id: number;
  challenge_id: number | null;
  competitor_kind: 'team' | 'user';
  competitor_id: number;
  started_by: number | null;
  state: string;
  container_id: string | null;
  ports: string;
  error: string | null;
  created_at: number;
  expires_at: number;
  max_expires_at: number;
}

/** A challenge's instance definition as stored (JSON), with its name; undefined: no challenge. */
export async function findInstanceDefinition(
  db: Executor,
  challengeId: number,
): Promise<{ name: string; instance: string | null } | undefined> {
  return db
    .selectFrom('challenges')
    .select(['name', 'instance'])
    .where('id', '=', challengeId)
    .executeTakeFirst();
}

/** The ids of the challenges that have an instance definition. */
export async function listInstanceChallengeIds(db: Executor): Promise<Set<number>> {
  const rows = await db.selectFrom('challenges').select('id').where('instance', 'is not', null).execute();
  return new Set(rows.map((r) => r.id));
}

/** The stored instance definitions (JSON text) of the active challenges that have one. */
export async function listActiveInstanceDefinitions(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom('challenges')
    .select('instance')
    .where('instance', 'is not', null)
    .where('is_active', '=', 1)
    .execute();
  return rows.map((r) => r.instance!);
}

/**
 * Locks the competitor's row until the transaction ends on PostgreSQL (FOR UPDATE), so two starts
 * of one team count its instances one after the other; SQLite's writers are serial already.
 */
export async function lockCompetitor(trx: Executor, c: CompetitorKey, postgres: boolean): Promise<void> {
  const table = c.kind === 'team' ? 'teams' : 'users';
  await trx
    .selectFrom(table)
    .select('id')
    .where('id', '=', c.id)
    .$if(postgres, (q) => q.forUpdate())
    .execute();
}

/** The competitor's instances that count against its cap (a failed one does not). */
export async function countLiveInstances(trx: Executor, c: CompetitorKey): Promise<number> {
  const row = await trx
    .selectFrom('instances')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('competitor_kind', '=', c.kind)
    .where('competitor_id', '=', c.id)
    .where('state', '!=', 'failed')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findInstance(
  db: Executor,
  challengeId: number,
  c: CompetitorKey,
): Promise<InstanceRow | undefined> {
  return db
    .selectFrom('instances')
    .selectAll()
    .where('challenge_id', '=', challengeId)
    .where('competitor_kind', '=', c.kind)
    .where('competitor_id', '=', c.id)
    .executeTakeFirst() as Promise<InstanceRow | undefined>;
}

export async function findInstanceById(db: Executor, id: number): Promise<InstanceRow | undefined> {
  return db.selectFrom('instances').selectAll().where('id', '=', id).executeTakeFirst() as Promise<
    InstanceRow | undefined
  >;
}

/**
 * The competitor's row for this challenge, made now unless one exists: the unique index is the
 * judge, so two members pressing Start at once make one row (the second gets undefined).
 */
export async function insertInstance(
  trx: Executor,
  row: Omit<InstanceRow, 'id' | 'container_id' | 'error'>,
): Promise<number | undefined> {
  const inserted = await trx
    .insertInto('instances')
    .values(row)
    .onConflict((oc) => oc.columns(['challenge_id', 'competitor_kind', 'competitor_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id;
}

export async function listUsedPorts(trx: Executor): Promise<Set<number>> {
  const rows = await trx.selectFrom('instance_ports').select('host_port').execute();
  return new Set(rows.map((r) => r.host_port));
}

/** Claims a host port for an instance; false when another instance took it first. */
export async function claimPort(trx: Executor, hostPort: number, instanceId: number): Promise<boolean> {
  const row = await trx
    .insertInto('instance_ports')
    .values({ host_port: hostPort, instance_id: instanceId })
    .onConflict((oc) => oc.column('host_port').doNothing())
    .returning('host_port')
    .executeTakeFirst();
  return row !== undefined;
}

export async function setPorts(trx: Executor, id: number, ports: string): Promise<void> {
  await trx.updateTable('instances').set({ ports }).where('id', '=', id).execute();
}

/** Gives back an instance's host ports (a start that moves to other ports). */
export async function releasePorts(trx: Executor, instanceId: number): Promise<void> {
  await trx.deleteFrom('instance_ports').where('instance_id', '=', instanceId).execute();
}

type InstanceChange = { container_id: string } | { state: 'running' | 'stopping' } | { expires_at: number };

/**
 * Changes an instance only while its state is what the change expects (`in`, or anything but
 * `notIn`): the guard that keeps two processes, the janitor and a player's click from racing;
 * answers whether this call changed it.
 */
async function changeGuarded(
  db: Executor,
  id: number,
  change: InstanceChange,
  guard: { in: string } | { notIn: string },
): Promise<boolean> {
  const r = await db
    .updateTable('instances')
    .set(change)
    .where('id', '=', id)
    .where('state', 'in' in guard ? '=' : '!=', 'in' in guard ? guard.in : guard.notIn)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The container exists (its id known); the row stays 'starting' until its port answers. */
export const setContainer = (db: Executor, id: number, containerId: string) =>
  changeGuarded(db, id, { container_id: containerId }, { in: 'starting' });

export const setRunning = (db: Executor, id: number) =>
  changeGuarded(db, id, { state: 'running' }, { in: 'starting' });

/** A failed start keeps its row (the admin panel shows the engine's message); its ports go. */
export async function setFailed(db: Executor, id: number, error: string): Promise<void> {
  await db
    .updateTable('instances')
    .set({ state: 'failed', error, container_id: null })
    .where('id', '=', id)
    .where('state', 'in', ['starting', 'running'])
    .execute();
  await db.deleteFrom('instance_ports').where('instance_id', '=', id).execute();
}

/**
 * A stop the engine did not finish (it did not answer): the row is failed with why, so it neither
 * stays 'stopping' nor counts against the cap; its container, if any is left, goes at the
 * janitor's first sweep once the engine answers (a failed row's container is an orphan).
 */
export async function setStopFailed(db: Executor, id: number, error: string): Promise<void> {
  await db
    .updateTable('instances')
    .set({ state: 'failed', error })
    .where('id', '=', id)
    .where('state', '=', 'stopping')
    .execute();
}

/** Marks the row stopping (no renewal, no second stop); answers whether this call did. */
export const markStopping = (db: Executor, id: number) =>
  changeGuarded(db, id, { state: 'stopping' }, { notIn: 'stopping' });

export async function deleteInstance(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('instance_ports').where('instance_id', '=', id).execute();
  await db.deleteFrom('instances').where('id', '=', id).execute();
}

/** Renews a running instance to `expiresAt`; false when it is not running (any more). */
export const setExpiry = (db: Executor, id: number, expiresAt: number) =>
  changeGuarded(db, id, { expires_at: expiresAt }, { in: 'running' });

export async function listInstances(db: Executor): Promise<InstanceRow[]> {
  return db.selectFrom('instances').selectAll().orderBy('id').execute() as Promise<InstanceRow[]>;
}

export interface AdminInstanceRow extends InstanceRow {
  challenge_name: string | null;
  competitor_name: string | null;
  started_by_name: string | null;
}

/** Every instance with the names the admin panel shows (newest first). */
export async function listInstancesForAdmin(db: Executor): Promise<AdminInstanceRow[]> {
  return db
    .selectFrom('instances as i')
    .leftJoin('challenges as c', 'c.id', 'i.challenge_id')
    .leftJoin('teams as t', (j) =>
      j.onRef('t.id', '=', 'i.competitor_id').on('i.competitor_kind', '=', 'team'),
    )
    .leftJoin('users as u', (j) =>
      j.onRef('u.id', '=', 'i.competitor_id').on('i.competitor_kind', '=', 'user'),
    )
    .leftJoin('users as s', 's.id', 'i.started_by')
    .selectAll('i')
    .select([
      'c.name as challenge_name',
      sql<string | null>`coalesce(t.name, u.username)`.as('competitor_name'),
      's.username as started_by_name',
    ])
    .orderBy('i.id', 'desc')
    .execute() as Promise<AdminInstanceRow[]>;
}

/**
 * The instances that must go now, whatever their expiry: the challenge was deleted or lost its
 * definition, or the competitor was removed, hidden or banned.
 */
export async function listUnwantedInstances(db: Executor): Promise<{ id: number; reason: string }[]> {
  const rows = await db
    .selectFrom('instances as i')
    .leftJoin('challenges as c', 'c.id', 'i.challenge_id')
    .leftJoin('teams as t', (j) =>
      j.onRef('t.id', '=', 'i.competitor_id').on('i.competitor_kind', '=', 'team'),
    )
    .leftJoin('users as u', (j) =>
      j.onRef('u.id', '=', 'i.competitor_id').on('i.competitor_kind', '=', 'user'),
    )
    .select([
      'i.id',
      'c.id as challenge',
      'c.instance',
      sql<number | null>`coalesce(t.id, u.id)`.as('competitor'),
      sql<number>`coalesce(t.hidden, u.hidden, 0) + coalesce(t.banned, u.banned, 0)`.as('moderated'),
    ])
    .where('i.state', '!=', 'stopping')
    .execute();
  const out: { id: number; reason: string }[] = [];
  for (const r of rows) {
    if (r.challenge === null || r.instance === null) out.push({ id: r.id, reason: 'challenge gone' });
    else if (r.competitor === null) out.push({ id: r.id, reason: 'competitor gone' });
    else if (Number(r.moderated) > 0) out.push({ id: r.id, reason: 'competitor hidden or banned' });
  }
  return out;
}

/**
 * Takes or keeps the named lease for `leaseMs`: one conditional upsert, so of processes asking at
 * once exactly one holds it (as the webhook outbox's claim: the condition is checked on the row
 * itself). Answers whether `holder` holds it now.
 */
export async function claimLease(
  db: Executor,
  name: string,
  holder: string,
  now: number,
  leaseMs: number,
): Promise<boolean> {
  const row = await db
    .insertInto('job_leases')
    .values({ name, holder, until: now + leaseMs })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder, until: now + leaseMs })
        .where((eb) => eb.or([eb('job_leases.holder', '=', holder), eb('job_leases.until', '<', now)])),
    )
    .returning('holder')
    .executeTakeFirst();
  return row?.holder === holder;
}

export async function releaseLease(db: Executor, name: string, holder: string): Promise<void> {
  await db.deleteFrom('job_leases').where('name', '=', name).where('holder', '=', holder).execute();
}

/** A competitor's instances in the given states (all states when none given). */
export async function listCompetitorInstances(
  db: Executor,
  c: CompetitorKey,
  states?: string[],
): Promise<InstanceRow[]> {
  return db
    .selectFrom('instances')
    .selectAll()
    .where('competitor_kind', '=', c.kind)
    .where('competitor_id', '=', c.id)
    .$if(states !== undefined, (q) => q.where('state', 'in', states!))
    .execute() as Promise<InstanceRow[]>;
}

/**
 * The user's competitor as stored now (not as a cached session has it), locking the user's row
 * until the transaction ends on PostgreSQL: a team change (which writes that row) and a start
 * then happen one after the other, never across each other.
 */
export async function currentCompetitor(
  trx: Executor,
  userId: number,
  postgres: boolean,
): Promise<CompetitorKey | undefined> {
  const row = await trx
    .selectFrom('users')
    .select('team_id')
    .where('id', '=', userId)
    .$if(postgres, (q) => q.forUpdate())
    .executeTakeFirst();
  if (!row) return undefined;
  return row.team_id === null ? { kind: 'user', id: userId } : { kind: 'team', id: row.team_id };
}
