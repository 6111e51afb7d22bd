import { Badge } from 'react-bootstrap';

/** The competitor who solved the challenge first (its first blood); nothing before anyone has. */
export function FirstBloodBadge({ competitor, muted = false }: { competitor: string | null; muted?: boolean }) {
  if (competitor === null) return null;
  return (
    <Badge bg={muted ? 'dark' : 'danger'} className="text-wrap text-start" data-testid="first-blood">
      <span aria-hidden="true">🩸 </span>First blood: {competitor}
    </Badge>
  );
}
