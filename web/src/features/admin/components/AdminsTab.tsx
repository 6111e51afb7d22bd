import { adminApi, type User } from '@ctf/contract';
import { Button } from 'react-bootstrap';
import { removeAdmin, useAdmins } from '../api/users';
import type { AdminAct } from '../use-admin-action';
import { AdminTable, type AdminColumn } from './AdminTable';
import { QueryState } from './QueryState';

/** The admins; Delete takes the role away (the server keeps at least one). */
export function AdminsTab({ act }: { act: AdminAct }) {
  const admins = useAdmins();
  const columns: AdminColumn<User>[] = [
    { header: 'Username', cell: (a) => a.username },
    { header: 'Email', cell: (a) => a.email },
    {
      header: 'Actions',
      hideHeader: true,
      end: true,
      cell: (a) => (
        <Button
          size="sm"
          variant="outline-danger"
          aria-label={`Delete admin ${a.username}`}
          onClick={() => {
            if (window.confirm(adminApi.confirmDeleteText('admin'))) void act(() => removeAdmin(a.username));
          }}
        >
          Delete
        </Button>
      ),
    },
  ];
  return (
    <QueryState query={admins} what="admins">
      {(list) => (
        <AdminTable
          label="Admins"
          columns={columns}
          rows={list}
          rowKey={(a) => a._id}
          summary={
            <p>
              Admins: <strong>{list.length}</strong>
            </p>
          }
          empty={<p>No admins.</p>}
        />
      )}
    </QueryState>
  );
}
