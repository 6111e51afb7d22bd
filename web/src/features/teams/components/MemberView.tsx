import { MAX_TEAM_SIZE, type Team } from '@ctf/contract';
import { MemberList } from './MemberList';

/** docs/product.md §2 non-leader member view: read-only. */
export function MemberView({ team }: { team: Team }) {
  return (
    <>
      <h2 className="h3">Team: {team.name}</h2>
      <p className="mt-3">
        Team Leader: <strong>{team.team_leader}</strong>
      </p>
      <section aria-labelledby="members-heading">
        <h3 id="members-heading" className="h5">
          Members ({team.memberCount}/{MAX_TEAM_SIZE})
        </h3>
        <MemberList members={team.members} leader={team.team_leader} />
      </section>
      <p className="text-body-secondary mt-3">
        Only the team leader can rename the team or change its members.
      </p>
    </>
  );
}
