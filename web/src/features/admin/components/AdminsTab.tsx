import { adminApi } from '@ctf/contract';
import { Button, Table } from 'react-bootstrap';
import { removeAdmin, useAdmins } from '../api/users';
import type { AdminAct } from '../use-admin-action';
import { QueryState } from './QueryState';

/** The admins; Delete takes the role away (the server keeps at least one). */
export function AdminsTab({ act }: { act: AdminAct }) {
  const admins = useAdmins();
  return (
    <QueryState query={admins} what="admins">
      {(list) => (
        <>
          <p>
            Admins: <strong>{list.length}</strong>
          </p>
          <Table striped responsive size="sm" aria-label="Admins">
            <thead>
              <tr>
                <th scope="col">Username</th>
                <th scope="col">Email</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((a) => (
                <tr key={a._id}>
                  <td>{a.username}</td>
                  <td>{a.email}</td>
                  <td className="text-end">
                    <Button
                      size="sm"
                      variant="outline-danger"
                      aria-label={`Delete admin ${a.username}`}
                      onClick={() => {
                        if (window.confirm(adminApi.confirmDeleteText('admin')))
                          void act(() => removeAdmin(a.username));
                      }}
                    >
                      Delete
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      )}
    </QueryState>
  );
}
