import { Badge } from 'react-bootstrap';

/** The team-completion icon: a mark plus words, so it never relies on colour alone. */
export function TeamCompletionBadge({ done, muted = false }: { done: boolean; muted?: boolean }) {
  return done ? (
    <Badge bg={muted ? 'dark' : 'success'} className="team-completion">
      <span aria-hidden="true">✔ </span>Team completed
    </Badge>
  ) : (
    <Badge bg={muted ? 'dark' : 'secondary'} className="team-completion">
      <span aria-hidden="true">✖ </span>Team not completed
    </Badge>
  );
}
