import type { AdminUser } from '@ctf/contract';
import { Button } from 'react-bootstrap';
import { promoteAdmin, removeUser, useAdminUsers } from '../api/users';
import type { AdminAct } from '../use-admin-action';
import { AdminTable, deleteColumn, type AdminColumn } from './AdminTable';
import { moderationColumn, statusColumn } from './ModerationColumns';
import { QueryState } from './QueryState';

/**
 * Every participant (admins are listed and counted on their own tab), each with Delete. While the
 * site has divisions (the server then names each user's, or null), a Division column shows them.
 */
export function UsersTab({ act }: { act: AdminAct }) {
  const users = useAdminUsers();
  const columns = (withDivision: boolean): AdminColumn<AdminUser>[] => [
    { header: 'Username', cell: (u) => u.username },
    { header: 'Email', cell: (u) => u.email },
    { header: 'Team', cell: (u) => `${u.team}${u.is_leader ? ' (leader)' : ''}` },
    ...(withDivision ? [{ header: 'Division', cell: (u: AdminUser) => u.division ?? 'None' }] : []),
    { header: 'Completions', cell: (u) => u.completions.length },
    {
      header: 'Role',
      hideHeader: true,
      cell: (u) => (
        <Button
          size="sm"
          variant="outline-primary"
          aria-label={`Make Admin: ${u.username}`}
          onClick={() => {
            if (window.confirm(`Make '${u.username}' an admin? Admins manage the whole site.`))
              void act(() => promoteAdmin(u.username));
          }}
        >
          Make Admin
        </Button>
      ),
    },
    statusColumn<AdminUser>(),
    moderationColumn<AdminUser>('user', (u) => u.username, act),
    deleteColumn(
      'user',
      (u) => u.username,
      (u) => removeUser(u._id),
      act,
    ),
  ];
  return (
    <QueryState query={users} what="users">
      {(list) => (
        <AdminTable
          label="Users"
          columns={columns(list.some((u) => u.division !== undefined))}
          rows={list}
          rowKey={(u) => u._id}
          search={{
            label: 'Search users',
            text: (u) => `${u.username} ${u.email} ${u.team} ${u.division ?? ''}`,
          }}
          summary={
            <p data-testid="user-count">
              Users: <strong>{list.length}</strong>{' '}
              <span className="text-body-secondary">(admins not counted)</span>
            </p>
          }
          empty={<p>No users yet.</p>}
        />
      )}
    </QueryState>
  );
}
