import { Alert } from 'react-bootstrap';
import { LocalTime } from '../../../components/LocalTime';

const localeString = (date: Date) => date.toLocaleString();

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
  return (
    <Alert variant={isAdmin ? 'warning' : 'info'} data-testid="freeze-banner">
      {isAdmin ? (
        <>
          Live board (admins only): the scoreboard is frozen for everyone else at{' '}
          <LocalTime iso={freezeAt} format={localeString} />.
        </>
      ) : (
        <>
          The scoreboard is frozen since <LocalTime iso={freezeAt} format={localeString} />: scores, solve
          counts and points show the board as it was then, until the organisers reveal it.
        </>
      )}
    </Alert>
  );
}
