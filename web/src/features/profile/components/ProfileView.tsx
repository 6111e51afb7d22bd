import { useDeferredValue } from 'react';
import { Button, Card } from 'react-bootstrap';
import { useNavigate } from 'react-router';
import { AfterIdle } from '../../../components/AfterIdle';
import { AwardList } from '../../../components/AwardList';
import { QueryError } from '../../../components/QueryError';
import { useCurrentUser } from '../../../lib/auth';
import { ApiTokens } from './ApiTokens';
import { SignInMethods } from './SignInMethods';
import { DivisionPicker } from './DivisionPicker';
import { ProfileWriteups } from './ProfileWriteups';

/** docs/product.md §2 profile page: avatar, username and the way to the team page. */
export function ProfileView() {
  const navigate = useNavigate();
  const me = useCurrentUser();
  // The page's sections are drawn from the answer at a transition's priority, in slices: drawn at
  // once when it arrives, they were one long task on a phone (the main thread blocked).
  const user = useDeferredValue(me.data);

  if (me.isPending || (me.data !== undefined && user === undefined))
    return <p role="status">Loading your profile…</p>;
  if (me.isError) {
    return <QueryError what="your profile" error={me.error} onRetry={() => me.refetch()} className="my-3" />;
  }
  if (!user) return null;

  return (
    <>
      <Card as="section" aria-labelledby="profile-heading" className="my-3">
        <Card.Body className="d-flex flex-wrap align-items-center gap-4">
          {user.avatarUrl ? (
            <img
              src={user.avatarUrl}
              alt={`${user.username}'s avatar`}
              width={96}
              height={96}
              className="rounded-circle border"
              referrerPolicy="no-referrer"
            />
          ) : (
            <div
              role="img"
              aria-label={`${user.username}'s avatar`}
              className="rounded-circle border bg-secondary text-white d-flex align-items-center justify-content-center fs-1"
              style={{ width: 96, height: 96 }}
            >
              {user.username.slice(0, 1).toUpperCase()}
            </div>
          )}
          <div className="flex-grow-1">
            <h1 id="profile-heading" className="h2 mb-1">
              {user.username}
            </h1>
            <p className="mb-2 text-body-secondary">Team: {user.team}</p>
            <Button onClick={() => void navigate('/profile?mode=1')}>Go to Team Page</Button>
          </div>
        </Card.Body>
      </Card>
      <DivisionPicker user={user} />
      <AwardList awards={user.awards} owner="your" />
      <AfterIdle>
        <ProfileWriteups />
      </AfterIdle>
      <AfterIdle>
        <SignInMethods />
      </AfterIdle>
      <AfterIdle>
        <ApiTokens role={user.role} />
      </AfterIdle>
    </>
  );
}
