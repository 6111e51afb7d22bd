import { adminApi } from '@ctf/contract';
import { Button, Table } from 'react-bootstrap';
import { removeUser, useAdminUsers } from '../api/users';
import type { AdminAct } from '../use-admin-action';
import { QueryState } from './QueryState';

/** Every participant (admins are listed and counted on their own tab), each with Delete. */
export function UsersTab({ act }: { act: AdminAct }) {
  const users = useAdminUsers();
  return (
    <QueryState query={users} what="users">
      {(list) => (
        <>
          <p data-testid="user-count">
            Users: <strong>{list.length}</strong>{' '}
            <span className="text-body-secondary">(admins not counted)</span>
          </p>
          {list.length === 0 ? (
            <p>No users yet.</p>
          ) : (
            <Table striped responsive size="sm" aria-label="Users">
              <thead>
                <tr>
                  <th scope="col">Username</th>
                  <th scope="col">Email</th>
                  <th scope="col">Team</th>
                  <th scope="col">Completions</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((u) => (
                  <tr key={u._id}>
                    <td>{u.username}</td>
                    <td>{u.email}</td>
                    <td>
                      {u.team}
                      {u.is_leader && ' (leader)'}
                    </td>
                    <td>{u.completions.length}</td>
                    <td className="text-end">
                      <Button
                        size="sm"
                        variant="outline-danger"
                        aria-label={`Delete user ${u.username}`}
                        onClick={() => {
                          if (window.confirm(adminApi.confirmDeleteText('user')))
                            void act(() => removeUser(u._id));
                        }}
                      >
                        Delete
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </>
      )}
    </QueryState>
  );
}
