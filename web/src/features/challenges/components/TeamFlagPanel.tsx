import { Card } from 'react-bootstrap';

/**
 * The caller's own per-team flag, on a challenge built to read it (issue 18): the description says
 * what to do with it. Nobody else is shown this flag; sending another team's is flagged to admins.
 */
export function TeamFlagPanel({ flag }: { flag: string }) {
  return (
    <Card as="section" className="my-3" aria-labelledby="team-flag-heading" data-testid="team-flag-panel">
      <Card.Body>
        <h2 id="team-flag-heading" className="h5">
          Your own flag
        </h2>
        <p className="mb-2">
          This challenge is built to read your own flag; the description says how to use it. It is yours
          alone: do not share it.
        </p>
        <code className="user-select-all" data-testid="team-flag">
          {flag}
        </code>
      </Card.Body>
    </Card>
  );
}
