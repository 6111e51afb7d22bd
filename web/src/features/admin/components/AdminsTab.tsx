import type { User } from '@ctf/contract';
import { removeAdmin, useAdmins } from '../api/users';
import type { AdminAct } from '../use-admin-action';
import { AdminTable, deleteColumn, type AdminColumn } from './AdminTable';
import { QueryState } from './QueryState';

/** The admins; Delete takes the role away (the server keeps at least one). */
export function AdminsTab({ act }: { act: AdminAct }) {
  const admins = useAdmins();
  const columns: AdminColumn<User>[] = [
    { header: 'Username', cell: (a) => a.username },
    { header: 'Email', cell: (a) => a.email },
    deleteColumn(
      'admin',
      (a) => a.username,
      (a) => removeAdmin(a.username),
      act,
    ),
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
