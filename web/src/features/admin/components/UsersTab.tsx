import { ROLES, accountsApi, adminApi, integrityApi, type AdminUser, type Role } from '@ctf/contract';
import { Button, Form } from 'react-bootstrap';
import { promoteAdmin, removeUser, setCompeting, setRole, useAdminUsers } from '../api/users';
import { useMayCall } from '../staff-role';
import type { AdminAct } from '../use-admin-action';
import { AdminTable, deleteColumn, type AdminColumn } from './AdminTable';
import { moderationColumn, statusColumn } from './ModerationColumns';
import { QueryState } from './QueryState';
import { BlockedEmails, useWaysInColumn } from './SignInColumns';

const ROLE_NAMES: Record<Role, string> = {
  player: 'Player',
  monitor: 'Monitor',
  author: 'Author',
  admin: 'Admin',
};

/**
 * Every participant (admins are listed and counted on their own tab), each with Delete. While the
 * site has divisions (the server then names each user's, or null), a Division column shows them.
 * An admin sets each user's staff role here, and marks a monitor or author as competing (staff are
 * left out of public lists and first bloods otherwise); a monitor reads the list without e-mail
 * addresses and without a button.
 */
export function UsersTab({ act }: { act: AdminAct }) {
  const users = useAdminUsers();
  const may = useMayCall();
  const waysIn = useWaysInColumn(act, may(accountsApi.resendConfirmation));
  const columns = (withDivision: boolean): AdminColumn<AdminUser>[] => [
    { header: 'Username', cell: (u) => u.username },
    ...(may(adminApi.setRole) ? [{ header: 'Email', cell: (u: AdminUser) => u.email }] : []),
    { header: 'Team', cell: (u) => `${u.team}${u.is_leader ? ' (leader)' : ''}` },
    ...(withDivision ? [{ header: 'Division', cell: (u: AdminUser) => u.division ?? 'None' }] : []),
    { header: 'Completions', cell: (u) => u.completions.length },
    waysIn,
    may(adminApi.setRole)
      ? {
          header: 'Staff role',
          cell: (u: AdminUser) => (
            <Form.Select
              size="sm"
              aria-label={`Staff role: ${u.username}`}
              value={u.role}
              onChange={(e) => {
                const role = e.target.value as Role;
                void act(() => setRole(u._id, role));
              }}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_NAMES[r]}
                </option>
              ))}
            </Form.Select>
          ),
        }
      : { header: 'Staff role', cell: (u: AdminUser) => ROLE_NAMES[u.role] },
    ...(may(adminApi.setCompeting) ? [competingColumn(act)] : []),
    ...(may(adminApi.promoteAdmin) ? [makeAdminColumn(act)] : []),
    statusColumn<AdminUser>(),
    ...(may(integrityApi.moderate) ? [moderationColumn<AdminUser>('user', (u) => u.username, act)] : []),
    ...(may(adminApi.removeUser)
      ? [
          deleteColumn(
            'user',
            (u: AdminUser) => u.username,
            (u) => removeUser(u._id),
            act,
          ),
        ]
      : []),
  ];

  // NOTE: the blocked addresses come after the table once the list has loaded, never before it:
  // drawn under a spinner they were pushed down by the table (a layout shift).
  return (
    <QueryState query={users} what="users">
      {(list) => (
        <>
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
          {may(accountsApi.blockEmail) && <BlockedEmails act={act} />}
        </>
      )}
    </QueryState>
  );
}

/** Make Admin (promote_admin), kept beside the role selector: one click for the common case. */
function makeAdminColumn(act: AdminAct): AdminColumn<AdminUser> {
  return {
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
  };
}

/** Competing: a monitor or author counts in public only when marked (players always do). */
function competingColumn(act: AdminAct): AdminColumn<AdminUser> {
  return {
    header: 'Competing',
    cell: (u) =>
      u.role === 'monitor' || u.role === 'author' ? (
        <Form.Check
          type="switch"
          id={`competing-${u._id}`}
          aria-label={`Competing: ${u.username}`}
          checked={u.competing}
          onChange={(e) => {
            const competing = e.target.checked;
            void act(() => setCompeting(u._id, competing));
          }}
        />
      ) : (
        <span className="text-body-secondary">{u.role === 'player' ? 'Always' : 'Never'}</span>
      ),
  };
}
