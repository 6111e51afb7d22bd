import { MESSAGES, RATING_MAX, formatRating, type PublicChallenge } from '@ctf/contract';
import { useMemo } from 'react';
import { Badge, Card } from 'react-bootstrap';
import { Link } from 'react-router';
import { authorOf, descriptionPreview } from '../filter';
import { DynamicMark } from './DynamicMark';
import { FirstBloodBadge } from './FirstBloodBadge';
import { TeamCompletionBadge } from './TeamCompletionBadge';

interface Props {
  challenge: PublicChallenge;
  solved: boolean;
  /** Whether the user's team solved it; null when the user is on no team (no icon then). */
  teamDone: boolean | null;
  /** Names of the prerequisites the competitor has not solved yet (empty: open). */
  lockedBy?: string[];
}

/** One challenge on the Compete page; an inactive one is dimmed, not linked, and says why. */
export function ChallengeCard({ challenge: c, solved, teamDone, lockedBy = [] }: Props) {
  if (lockedBy.length > 0) return <LockedCard challenge={c} lockedBy={lockedBy} />;
  const active = c.is_active;
  const preview = useMemo(() => descriptionPreview(c.description), [c.description]);
  // Dark badges on a dimmed card, so the faded card keeps their text readable (4.5:1).
  const tone = (bg: string) => (active ? bg : 'dark');
  return (
    <Card
      className={`challenge-card h-100${active ? '' : ' inactive'}`}
      data-testid="challenge-card"
      aria-disabled={active ? undefined : true}
    >
      <Card.Body>
        <Card.Title as="h2" className="h5">
          {active ? (
            <Link to={`/challenge?id=${encodeURIComponent(c._id)}`} className="stretched-link">
              {c.name}
            </Link>
          ) : (
            c.name
          )}
        </Card.Title>
        <div className="d-flex flex-wrap gap-1 mb-2">
          <Badge bg={tone('primary')}>{c.category}</Badge>
          <Badge bg="dark">{c.difficulty}</Badge>
          {solved && (
            <Badge bg={tone('success')}>
              <span aria-hidden="true">✔ </span>Solved
            </Badge>
          )}
          {teamDone !== null && <TeamCompletionBadge done={teamDone} muted={!active} />}
          <FirstBloodBadge competitor={c.first_blood ?? null} muted={!active} />
        </div>
        <Card.Subtitle className="mb-2 text-body-secondary">by {authorOf(c)}</Card.Subtitle>
        <Card.Text className="text-break">{preview}</Card.Text>
        {!active && <p className="fw-semibold text-danger-emphasis mb-0">{MESSAGES.challengeInactive}</p>}
      </Card.Body>
      <Card.Footer>
        <ul className="list-inline mb-0 small">
          <li className="list-inline-item">
            Rating: {formatRating(c.rating)} / {RATING_MAX}
          </li>
          <li className="list-inline-item">
            Points: {c.points}
            {c.scoring_type === 'dynamic' && <DynamicMark />}
          </li>
          <li className="list-inline-item">Solves: {c.user_completions}</li>
        </ul>
      </Card.Footer>
    </Card>
  );
}

/** A challenge behind prerequisites: its name and category only, and what to solve first. */
function LockedCard({ challenge: c, lockedBy }: { challenge: PublicChallenge; lockedBy: string[] }) {
  return (
    <Card className="challenge-card h-100 inactive" data-testid="challenge-card" aria-disabled>
      <Card.Body>
        <Card.Title as="h2" className="h5">
          <span aria-hidden="true">🔒 </span>
          {c.name}
        </Card.Title>
        <div className="d-flex flex-wrap gap-1 mb-2">
          <Badge bg="dark">{c.category}</Badge>
        </div>
        <p className="mb-0" data-testid="locked-note">
          Locked: solve {lockedBy.join(', ')} first.
        </p>
      </Card.Body>
    </Card>
  );
}
