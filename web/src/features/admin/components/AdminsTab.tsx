import { adminApi, type User } from '@ctf/contract';
import { useMayCall } from '../staff-role';
import { removeAdmin, useAdmins } from '../api/users';
import type { AdminAct } from '../use-admin-action';
import { AdminTable, deleteColumn, type AdminColumn } from './AdminTable';
import { QueryState } from './QueryState';

/** The admins; Delete takes the role away (the server keeps at least one). */
export function AdminsTab({ act }: { act: AdminAct }) {
  const admins = useAdmins();
  const may = useMayCall();
  // A monitor reads the list without e-mail addresses (the server sends none) or buttons.
  const columns: AdminColumn<User>[] = [
    { header: 'Username', cell: (a) => a.username },
    ...(may(adminApi.removeAdmin)
      ? [
          { header: 'Email', cell: (a: User) => a.email },
          deleteColumn(
            'admin',
            (a: User) => a.username,
            (a) => removeAdmin(a.username),
            act,
          ),
        ]
      : []),
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
