import { Link } from 'react-router';
import { useChallengeNames, useProfileWriteups } from '../api/writeups';

/** The competitor's writeups (issue 32): challenge, kind, when, reviewed and published. */
export function ProfileWriteups() {
  const writeups = useProfileWriteups();
  const list = writeups.data ?? [];
  const names = useChallengeNames(list.length > 0);
  if (list.length === 0) return null;
  return (
    <section aria-labelledby="writeups-heading" className="my-3" data-testid="profile-writeups">
      <h2 id="writeups-heading" className="h4">
        Writeups
      </h2>
      <ul>
        {list.map((w) => (
          <li key={w._id}>
            <Link to={`/challenge?id=${encodeURIComponent(w.challenge_id)}`}>
              {names.data?.get(w.challenge_id) ?? `Challenge ${w.challenge_id}`}
            </Link>
            : {w.url ? 'link' : 'file'}, handed in{' '}
            <time dateTime={w.submittedAt}>{new Date(w.submittedAt).toLocaleString()}</time>
            {' · '}
            {w.reviewed ? 'reviewed' : 'not reviewed yet'}
            {w.published && ' · published'}
          </li>
        ))}
      </ul>
    </section>
  );
}
