import { mayCall, type Role } from '@ctf/contract';
import { createContext, useContext } from 'react';

/**
 * The signed-in staff member's role, provided by the admin panel. Tabs and buttons ask
 * useMayCall(route) whether to show themselves: the same authorisation table the server enforces
 * (contract api/staff-roles.ts), so the panel never offers what would answer 403.
 */
export const StaffRoleContext = createContext<Role>('admin');

export function useMayCall(): (route: { method: 'GET' | 'POST'; path: string }) => boolean {
  const role = useContext(StaffRoleContext);
  return (route) => mayCall(role, route);
}

/** The role itself, for the rules the contract states per role (e.g. seesSubmittedText). */
export function useStaffRole(): Role {
  return useContext(StaffRoleContext);
}
