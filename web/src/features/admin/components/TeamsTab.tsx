import { MAX_TEAM_SIZE, adminApi } from '@ctf/contract';
import { Button, Table } from 'react-bootstrap';
import { removeTeam, useAdminTeams } from '../api/teams';
import type { AdminAct } from '../use-admin-action';
import { QueryState } from './QueryState';

/** Every team with its leader and members, each with Delete (members become teamless). */
export function TeamsTab({ act }: { act: AdminAct }) {
  const teams = useAdminTeams();
  return (
    <QueryState query={teams} what="teams">
      {(list) =>
        list.length === 0 ? (
          <p>No teams yet.</p>
        ) : (
          <>
            <p>
              Teams: <strong>{list.length}</strong>
            </p>
            <Table striped responsive size="sm" aria-label="Teams">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Leader</th>
                  <th scope="col">Members</th>
                  <th scope="col">Size</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((team) => (
                  <tr key={team._id}>
                    <td>{team.name}</td>
                    <td>{team.team_leader}</td>
                    <td>{team.members.join(', ')}</td>
                    <td>
                      {team.memberCount}/{MAX_TEAM_SIZE}
                    </td>
                    <td className="text-end">
                      <Button
                        size="sm"
                        variant="outline-danger"
                        aria-label={`Delete team ${team.name}`}
                        onClick={() => {
                          if (window.confirm(adminApi.confirmDeleteText('team')))
                            void act(() => removeTeam(team._id));
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
        )
      }
    </QueryState>
  );
}
