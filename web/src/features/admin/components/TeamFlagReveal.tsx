import type { AdminChallenge } from '@ctf/contract';
import { useId, useState, type FormEvent } from 'react';
import { Button, Card, Form, InputGroup } from 'react-bootstrap';
import { revealTeamFlag } from '../api/challenges';
import type { AdminAct } from '../use-admin-action';

/**
 * Shows an admin one competitor's per-team flag of a challenge, on demand: the server derives it
 * and writes the read to the audit log (never the flag). The flag stays on screen until closed.
 */
export function TeamFlagReveal({
  challenge,
  act,
  onClose,
}: {
  challenge: AdminChallenge;
  act: AdminAct;
  onClose: () => void;
}) {
  const id = useId();
  const [competitor, setCompetitor] = useState('');
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<{ competitor: string; flag: string } | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy || !competitor.trim()) return;
    setBusy(true);
    setShown(null);
    try {
      await act(async () => {
        const result = await revealTeamFlag(challenge._id, competitor.trim());
        if (result.ok && result.data.acknowledge)
          setShown({ competitor: result.data.competitor, flag: result.data.flag });
        return result;
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card className="mb-3" as="section" aria-label={`Per-team flag of ${challenge.name}`}>
      <Card.Body>
        <Card.Title as="h2" className="h5">
          Per-team flag: {challenge.name}
        </Card.Title>
        <Form onSubmit={(e) => void submit(e)} aria-label="Show a competitor's flag">
          <Form.Group controlId={`${id}-competitor`}>
            <Form.Label>Team or username</Form.Label>
            <InputGroup>
              <Form.Control
                value={competitor}
                maxLength={200}
                autoComplete="off"
                onChange={(e) => setCompetitor(e.target.value)}
              />
              <Button type="submit" aria-disabled={busy || !competitor.trim()}>
                Show flag
              </Button>
              <Button variant="outline-secondary" onClick={onClose}>
                Close
              </Button>
            </InputGroup>
            <Form.Text>Each read is written to the audit log.</Form.Text>
          </Form.Group>
        </Form>
        {shown && (
          <p className="mt-3 mb-0" data-testid="team-flag">
            Flag of {shown.competitor}: <code className="user-select-all">{shown.flag}</code>
          </p>
        )}
      </Card.Body>
    </Card>
  );
}
