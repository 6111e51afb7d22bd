import { Badge } from 'react-bootstrap';

/** Marks a value that falls as more players solve the challenge (dynamic scoring). */
export function DynamicMark() {
  return (
    <Badge
      bg="info"
      text="dark"
      className="ms-1"
      title="Dynamic: worth less as more players solve it, for everyone who solved it"
      data-testid="dynamic-mark"
    >
      dynamic
    </Badge>
  );
}
