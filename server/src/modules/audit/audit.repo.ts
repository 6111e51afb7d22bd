import type { Insertable } from 'kysely';
import type { AuditLogTable, Executor } from '../../db/schema.js';

export async function insertAuditRow(db: Executor, row: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
}

export interface AuditRow {
  id: number;
  created_at: string;
  admin_name: string;
  action: string;
  target: string;
  details: string;
}

/**
 * One page, newest first by id, below the cursor when one is given. Each filter has its index
 * ((admin_name, id), (action, id)), so a page reads only its own rows at any size.
 */
export async function listAuditRows(
  db: Executor,
  filter: {
    admin?: string | undefined;
    action?: string | undefined;
    beforeId?: number | undefined;
    limit: number;
  },
): Promise<AuditRow[]> {
  return db
    .selectFrom('audit_log')
    .select(['id', 'created_at', 'admin_name', 'action', 'target', 'details'])
    .$if(filter.admin !== undefined, (q) => q.where('admin_name', '=', filter.admin!))
    .$if(filter.action !== undefined, (q) => q.where('action', '=', filter.action!))
    .$if(filter.beforeId !== undefined, (q) => q.where('id', '<', filter.beforeId!))
    .orderBy('id', 'desc')
    .limit(filter.limit)
    .execute();
}

/** Whether players see these challenges: active and release time (the monitor's redaction). */
export async function listChallengeStates(
  db: Executor,
  ids: readonly number[],
): Promise<Map<number, { is_active: number; release_at: string | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('challenges')
    .select(['id', 'is_active', 'release_at'])
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, { is_active: r.is_active, release_at: r.release_at }]));
}
