import { MAX_TEAM_SIZE, TEAM_NAME_MAX_LENGTH, UI_TEXT, type TeamListEntry, counted } from '@ctf/contract';
import { useState, type FormEvent } from 'react';
import { Button, Card, Form } from 'react-bootstrap';
import { QueryError } from '../../../components/QueryError';
import { useTeamList } from '../api/team-list';

/** docs/product.md §2: one joinable team as the select shows it. */
export function teamOptionLabel(t: TeamListEntry): string {
  return `${t.name} (${t.memberCount}/${MAX_TEAM_SIZE} members, ${counted(t.spotsLeft, 'spot left', 'spots left')})`;
}

interface Props {
  busy: boolean;
  onCreate: (name: string) => void;
  onRequest: (name: string) => void;
}

/** A user with no team: create one by name, or ask to join one from the list. */
export function NoTeamView({ busy, onCreate, onRequest }: Props) {
  const [newName, setNewName] = useState('');
  const [chosen, setChosen] = useState('');
  const list = useTeamList(true);

  function create(e: FormEvent) {
    e.preventDefault();
    if (!busy) onCreate(newName);
  }

  function request(e: FormEvent) {
    e.preventDefault();
    if (chosen && !busy) onRequest(chosen);
  }

  return (
    <div className="row g-4">
      <div className="col-md-6">
        <Card as="section" aria-labelledby="create-team-heading" className="h-100">
          <Card.Body>
            <h2 id="create-team-heading" className="h5">
              Create a team
            </h2>
            <Form onSubmit={create}>
              <Form.Group controlId="create-team-name" className="mb-3">
                <Form.Label>Team name</Form.Label>
                <Form.Control
                  value={newName}
                  onChange={(e) => setNewName(e.target.value)}
                  maxLength={TEAM_NAME_MAX_LENGTH}
                  required
                  autoComplete="off"
                />
              </Form.Group>
              <Button type="submit" aria-disabled={busy}>
                Create Team
              </Button>
            </Form>
          </Card.Body>
        </Card>
      </div>
      <div className="col-md-6">
        <Card as="section" aria-labelledby="join-team-heading" className="h-100">
          <Card.Body>
            <h2 id="join-team-heading" className="h5">
              Join a team
            </h2>
            {list.isPending ? (
              <p role="status">Loading teams…</p>
            ) : list.isError ? (
              <QueryError what="the list of teams" error={list.error} onRetry={() => list.refetch()} />
            ) : list.data.length === 0 ? (
              <p>{UI_TEXT.noTeamsToJoin}</p>
            ) : (
              <Form onSubmit={request}>
                <Form.Group controlId="join-team-select" className="mb-3">
                  <Form.Label>Team to join</Form.Label>
                  <Form.Select value={chosen} onChange={(e) => setChosen(e.target.value)}>
                    <option value="">{UI_TEXT.selectTeam}</option>
                    {list.data.map((t) => (
                      <option key={t.name} value={t.name}>
                        {teamOptionLabel(t)}
                      </option>
                    ))}
                  </Form.Select>
                </Form.Group>
                <Button type="submit" disabled={!chosen} aria-disabled={busy}>
                  Request Join Team
                </Button>
              </Form>
            )}
          </Card.Body>
        </Card>
      </div>
    </div>
  );
}
