import { MAX_TEAM_SIZE, adminApi, type Team } from '@ctf/contract';
import { Button } from 'react-bootstrap';
import { removeTeam, useAdminTeams } from '../api/teams';
import type { AdminAct } from '../use-admin-action';
import { AdminTable, type AdminColumn } from './AdminTable';
import { QueryState } from './QueryState';

/** Every team with its leader and members, each with Delete (members become teamless). */
export function TeamsTab({ act }: { act: AdminAct }) {
  const teams = useAdminTeams();
  const columns: AdminColumn<Team>[] = [
    { header: 'Name', cell: (t) => t.name },
    { header: 'Leader', cell: (t) => t.team_leader },
    { header: 'Members', cell: (t) => t.members.join(', ') },
    { header: 'Size', cell: (t) => `${t.memberCount}/${MAX_TEAM_SIZE}` },
    {
      header: 'Actions',
      hideHeader: true,
      end: true,
      cell: (t) => (
        <Button
          size="sm"
          variant="outline-danger"
          aria-label={`Delete team ${t.name}`}
          onClick={() => {
            if (window.confirm(adminApi.confirmDeleteText('team'))) void act(() => removeTeam(t._id));
          }}
        >
          Delete
        </Button>
      ),
    },
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
