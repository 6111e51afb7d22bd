import type { Kysely } from 'kysely';
import { withId } from './helpers.js';

/**
 * Per-team challenge instances (issue 30).
 * - challenges.instance: the container definition as JSON text (contract InstanceDefinition), or
 *   null for a challenge without one.
 * - instances: one row per competitor (team, or user while teamless) and challenge, unique: two
 *   members pressing Start at once make one row, so one container. The row is written before the
 *   container is made and deleted after it is removed, so the engine never holds a container the
 *   janitor cannot find a reason for (docs/decisions/0010-instances-kubernetes.md). challenge_id is set null
 *   when the challenge is deleted: the janitor then removes the container and the row.
 * - instance_ports: each published host port once (the primary key is the judge when two
 *   processes pick the same free port).
 * - job_leases: a named lease a process holds for a while (the instance janitor: one leader
 *   across every process, taken over when its holder stops renewing it).
 * Times are milliseconds since the epoch.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('challenges').addColumn('instance', 'text').execute();
  await withId(db, db.schema.createTable('instances'))
    .addColumn('challenge_id', 'integer', (c) => c.references('challenges.id').onDelete('set null'))
    .addColumn('competitor_kind', 'text', (c) => c.notNull())
    .addColumn('competitor_id', 'integer', (c) => c.notNull())
    .addColumn('started_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('container_id', 'text')
    .addColumn('ports', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('max_expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('instances_one_per_competitor')
    .on('instances')
    .columns(['challenge_id', 'competitor_kind', 'competitor_id'])
    .unique()
    .execute();
  await db.schema.createIndex('instances_expiry').on('instances').columns(['expires_at']).execute();
  await db.schema
    .createTable('instance_ports')
    .addColumn('host_port', 'integer', (c) => c.primaryKey())
    .addColumn('instance_id', 'integer', (c) => c.notNull().references('instances.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createIndex('instance_ports_instance')
    .on('instance_ports')
    .columns(['instance_id'])
    .execute();
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('until', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_leases').execute();
  await db.schema.dropTable('instance_ports').execute();
  await db.schema.dropTable('instances').execute();
  await db.schema.alterTable('challenges').dropColumn('instance').execute();
}
