import { Alert } from 'react-bootstrap';
import type { AdminOutcome } from '../api/action';

/** The panel's message area: green on success, red otherwise; the words say it too, not only the colour. */
export function AdminMessageView({ message }: { message: AdminOutcome | null }) {
  return (
    <div aria-live="polite" data-testid="admin-message">
      {message && (
        <Alert variant={message.success ? 'success' : 'danger'} className="my-3">
          <strong>{message.success ? 'Success: ' : 'Error: '}</strong>
          {message.text}
        </Alert>
      )}
    </div>
  );
}
