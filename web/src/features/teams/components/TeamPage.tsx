import { MAX_TEAM_SIZE } from '@ctf/contract';
import { Button } from 'react-bootstrap';
import { useNavigate } from 'react-router';
import { AwardList } from '../../../components/AwardList';
import { QueryError } from '../../../components/QueryError';
import { useCurrentUser } from '../../../lib/auth';
import {
  acceptRequest,
  createTeam,
  leaveTeam,
  removeMember,
  renameTeam,
  requestToJoin,
} from '../api/team-actions';
import { useTeamInfo } from '../api/team-info';
import { useTeamAction } from '../use-team-action';
import { LeaderView } from './LeaderView';
import { MemberView } from './MemberView';
import { NoTeamView } from './NoTeamView';
import { TeamMessageView } from './TeamMessageView';

/** docs/product.md §2 team page (/profile?mode=1): the view depends on whether and how the user is in a team. */
export function TeamPage() {
  const navigate = useNavigate();
  const me = useCurrentUser();
  const team = useTeamInfo();
  const { message, busy, run } = useTeamAction();

  let body;
  if (team.isPending || me.isPending) {
    body = <p role="status">Loading your team…</p>;
  } else if (team.isError) {
    body = <QueryError what="your team" error={team.error} onRetry={() => team.refetch()} />;
  } else if (me.isError) {
    body = <QueryError what="your account" error={me.error} onRetry={() => me.refetch()} />;
  } else if (team.data === null) {
    body = (
      <NoTeamView
        busy={busy}
        onCreate={(name) => void run('create', () => createTeam(name))}
        onRequest={(name) => void run('request', () => requestToJoin(name))}
      />
    );
  } else if (me.data && team.data.team_leader === me.data.username) {
    const current = team.data;
    body = (
      <LeaderView
        team={current}
        busy={busy}
        onRename={(name) => void run('update', () => renameTeam(name))}
        onLeave={() => void run('leave', () => leaveTeam(current.name))}
        onRemove={(username) => void run('remove', () => removeMember(username))}
        onAccept={(id, checksum) => void run('accept', () => acceptRequest(id, checksum))}
      />
    );
  } else {
    body = <MemberView team={team.data} />;
  }

  return (
    <section aria-labelledby="team-page-heading" className="py-3">
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
        <h1 id="team-page-heading" className="h2 mb-0">
          Team
        </h1>
        <Button variant="outline-secondary" onClick={() => void navigate('/profile')}>
          Go to Profile Page
        </Button>
      </div>
      <p className="text-body-secondary">
        Teams have up to {MAX_TEAM_SIZE} members. Points you scored before joining a team stay with you; your
        team scores only what its members solve while on it, and keeps those points if a member leaves.
      </p>
      {body}
      {team.data && <AwardList awards={team.data.awards} owner="the team" />}
      <TeamMessageView message={message} />
    </section>
  );
}
