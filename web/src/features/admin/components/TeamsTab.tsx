import { MAX_TEAM_SIZE, adminApi, integrityApi, type AdminTeam } from '@ctf/contract';
import { useMayCall } from '../staff-role';
import { removeTeam, useAdminTeams } from '../api/teams';
import type { AdminAct } from '../use-admin-action';
import { AdminTable, deleteColumn, type AdminColumn } from './AdminTable';
import { moderationColumn, statusColumn } from './ModerationColumns';
import { QueryState } from './QueryState';

/** Every team with its leader and members, each with Delete (members become teamless). */
export function TeamsTab({ act }: { act: AdminAct }) {
  const teams = useAdminTeams();
  const may = useMayCall();
  const columns: AdminColumn<AdminTeam>[] = [
    { header: 'Name', cell: (t) => t.name },
    { header: 'Leader', cell: (t) => t.team_leader },
    { header: 'Members', cell: (t) => t.members.join(', ') },
    { header: 'Size', cell: (t) => `${t.memberCount}/${MAX_TEAM_SIZE}` },
    statusColumn<AdminTeam>(),
    // A monitor reads the list without the buttons.
    ...(may(integrityApi.moderate) ? [moderationColumn<AdminTeam>('team', (t) => t.name, act)] : []),
    ...(may(adminApi.removeTeam)
      ? [
          deleteColumn(
            'team',
            (t: AdminTeam) => t.name,
            (t) => removeTeam(t._id),
            act,
          ),
        ]
      : []),
  ];
  return (
    <QueryState query={teams} what="teams">
      {(list) => (
        <AdminTable
          label="Teams"
          columns={columns}
          rows={list}
          rowKey={(t) => t._id}
          search={{ label: 'Search teams', text: (t) => `${t.name} ${t.members.join(' ')}` }}
          summary={
            list.length > 0 && (
              <p>
                Teams: <strong>{list.length}</strong>
              </p>
            )
          }
          empty={<p>No teams yet.</p>}
        />
      )}
    </QueryState>
  );
}
