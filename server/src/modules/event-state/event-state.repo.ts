import type { Executor } from '../../db/schema.js';
import { LOGO_DATA_KEY } from './setting-keys.js';

/** Every settings row but the logo's bytes: what the in-memory state is built from. */
export async function readSettingRows(db: Executor): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where('key', '!=', LOGO_DATA_KEY)
    .execute();
  return new Map(rows.map((r) => [r.key, r.value]));
}

export async function readSettingRow(db: Executor, key: string): Promise<string | null> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? null;
}

export async function writeSettingRows(db: Executor, rows: ReadonlyMap<string, string>): Promise<void> {
  for (const [key, value] of rows) {
    await db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}

/** Writes the rows whose key is not stored yet; a stored row keeps its value. */
export async function insertSettingRowsIfAbsent(
  db: Executor,
  rows: ReadonlyMap<string, string>,
): Promise<void> {
  for (const [key, value] of rows) {
    await db
      .insertInto('settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }
}

/** Every transition that happened, by key. */
export async function readTransitionKeys(db: Executor): Promise<Set<string>> {
  const rows = await db.selectFrom('site_transitions').select('key').execute();
  return new Set(rows.map((r) => r.key));
}

/**
 * Claims a transition: true for the one caller whose insert made the row (on every dialect the
 * primary key refuses the others), which then applies it in the same transaction.
 */
export async function claimTransition(
  db: Executor,
  row: { key: string; action: string; applied_at: string },
): Promise<boolean> {
  const result = await db
    .insertInto('site_transitions')
    .values(row)
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}
