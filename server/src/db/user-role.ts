import type { Role } from '@ctf/contract';

/**
 * The columns that hold a user's role, written together: role, and is_admin (1 exactly when the
 * role is admin), which the counting filter (db/counted.ts) and the admin views read. Every write
 * of a role goes through this, so the two never disagree.
 */
export function roleColumns(role: Role): { role: Role; is_admin: number } {
  return { role, is_admin: role === 'admin' ? 1 : 0 };
}
