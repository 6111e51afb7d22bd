import { Alert } from 'react-bootstrap';
import type { TeamMessage } from '../team-message';

/** The team page's message: the colour repeats what the text says, so it is never the only cue. */
export function TeamMessageView({ message }: { message: TeamMessage | null }) {
  if (!message) return null;
  return (
    <Alert
      variant={message.success ? 'success' : 'danger'}
      role={message.success ? 'status' : 'alert'}
      data-testid="team-message"
      className="mt-3"
    >
      <span className="visually-hidden">{message.success ? 'Success: ' : 'Error: '}</span>
      {message.text}
    </Alert>
  );
}
