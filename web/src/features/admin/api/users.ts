import { adminApi, type Role } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi, fetchData } from '../../../lib/api';
import { queryKeys } from '../../../lib/query';

/** GET /api/admin/get_users: every user who is not an admin. */
export function useAdminUsers() {
  return useQuery({ queryKey: queryKeys.admin('users'), queryFn: () => fetchData(adminApi.getUsers) });
}

/** GET /api/admin/fetch_admins. */
export function useAdmins() {
  return useQuery({ queryKey: queryKeys.admin('admins'), queryFn: () => fetchData(adminApi.fetchAdmins) });
}

/** POST /api/admin/remove_user {user_id}. */
export const removeUser = (userId: string) => callApi(adminApi.removeUser, { user_id: userId });

/** POST /api/admin/remove_admin {username}. */
export const removeAdmin = (username: string) => callApi(adminApi.removeAdmin, { username });

/** POST /api/admin/promote_admin {username}. */
export const promoteAdmin = (username: string) => callApi(adminApi.promoteAdmin, { username });

/** POST /api/admin/set_role {user_id, role}: a user's staff role (the last admin keeps admin). */
export const setRole = (userId: string, role: Role) => callApi(adminApi.setRole, { user_id: userId, role });

/** POST /api/admin/set_competing {user_id, competing}: whether a monitor or author counts in public. */
export const setCompeting = (userId: string, competing: boolean) =>
  callApi(adminApi.setCompeting, { user_id: userId, competing });
