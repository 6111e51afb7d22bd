import { UI_TEXT } from '@ctf/contract';
import { Badge, Button, ListGroup } from 'react-bootstrap';

interface Props {
  members: readonly string[];
  leader: string;
  /** Present for the leader's view: a Remove button per member, disabled for the leader. */
  onRemove?: (username: string) => void;
  busy?: boolean;
}

export function MemberList({ members, leader, onRemove, busy = false }: Props) {
  if (members.length === 0) return <p>{UI_TEXT.noMembers}</p>;
  return (
    <ListGroup as="ul" aria-label="Members">
      {members.map((m) => (
        <ListGroup.Item as="li" key={m} className="d-flex justify-content-between align-items-center gap-2">
          <span>
            {m}
            {m === leader && (
              <Badge bg="secondary" className="ms-2">
                Leader
              </Badge>
            )}
          </span>
          {onRemove && (
            <Button
              size="sm"
              variant="outline-danger"
              disabled={m === leader}
              aria-disabled={busy}
              onClick={() => !busy && onRemove(m)}
              aria-label={`Remove ${m}`}
            >
              Remove
            </Button>
          )}
        </ListGroup.Item>
      ))}
    </ListGroup>
  );
}
