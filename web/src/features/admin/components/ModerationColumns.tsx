import { Badge, Button } from 'react-bootstrap';
import { moderate } from '../api/moderation';
import type { AdminAct } from '../use-admin-action';
import type { AdminColumn } from './AdminTable';

interface Moderated {
  hidden: boolean;
  banned: boolean;
  moderation_reason: string | null;
}

/** Whether a user or team is hidden from public views or banned, with the reason on hover. */
export function statusColumn<T extends Moderated>(): AdminColumn<T> {
  return {
    header: 'Status',
    cell: (row) =>
      !row.hidden && !row.banned ? (
        ''
      ) : (
        <span title={row.moderation_reason ?? undefined}>
          {row.hidden && (
            <Badge bg="secondary" className="me-1">
              Hidden
            </Badge>
          )}
          {row.banned && <Badge bg="danger">Banned</Badge>}
          {row.moderation_reason && <span className="visually-hidden"> ({row.moderation_reason})</span>}
        </span>
      ),
  };
}

/**
 * Hide/Show and Ban/Unban for a user or a team: hiding and banning ask for the reason (kept with
 * the target and in the audit log); the outcome shows in the panel's message area.
 */
export function moderationColumn<T extends Moderated>(
  target: 'user' | 'team',
  name: (row: T) => string,
  act: AdminAct,
): AdminColumn<T> {
  const run = (row: T, action: 'hide' | 'unhide' | 'ban' | 'unban') => {
    let reason = '';
    if (action === 'hide' || action === 'ban') {
      const given = window.prompt(`Reason to ${action} ${target} ${name(row)}:`);
      if (given === null) return;
      reason = given;
    }
    void act(() => moderate({ target, name: name(row), action, reason }));
  };
  return {
    header: 'Moderation',
    hideHeader: true,
    end: true,
    cell: (row) => (
      <span className="text-nowrap">
        <Button
          size="sm"
          variant="outline-secondary"
          className="me-1"
          aria-label={`${row.hidden ? 'Show' : 'Hide'} ${target} ${name(row)}`}
          onClick={() => run(row, row.hidden ? 'unhide' : 'hide')}
        >
          {row.hidden ? 'Show' : 'Hide'}
        </Button>
        <Button
          size="sm"
          variant="outline-danger"
          aria-label={`${row.banned ? 'Unban' : 'Ban'} ${target} ${name(row)}`}
          onClick={() => run(row, row.banned ? 'unban' : 'ban')}
        >
          {row.banned ? 'Unban' : 'Ban'}
        </Button>
      </span>
    ),
  };
}
