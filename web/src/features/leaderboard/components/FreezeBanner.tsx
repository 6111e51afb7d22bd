import { Alert } from 'react-bootstrap';

/**
 * Says that the scoreboard is frozen and since when: to the public, that what they see is the
 * board as of then; to admins, that they see the live board the public does not.
 */
export function FreezeBanner({
  freezeAt,
  isAdmin,
  now = Date.now(),
}: {
  freezeAt: string | null;
  isAdmin: boolean;
  now?: number;
}) {
  if (freezeAt === null || Date.parse(freezeAt) > now) return null;
  const since = new Date(freezeAt).toLocaleString();
  return (
    <Alert variant={isAdmin ? 'warning' : 'info'} data-testid="freeze-banner">
      {isAdmin ? (
        <>
          Live board (admins only): the scoreboard is frozen for everyone else at{' '}
          <time dateTime={freezeAt}>{since}</time>.
        </>
      ) : (
        <>
          The scoreboard is frozen since <time dateTime={freezeAt}>{since}</time>: scores, solve counts and
          points show the board as it was then, until the organisers reveal it.
        </>
      )}
    </Alert>
  );
}
