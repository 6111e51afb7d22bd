import { MAX_TEAM_SIZE, TEAM_NAME_MAX_LENGTH, UI_TEXT, type Team } from '@ctf/contract';
import { useState, type FormEvent } from 'react';
import { Button, Form, ListGroup } from 'react-bootstrap';
import { MemberList } from './MemberList';

interface Props {
  team: Team;
  busy: boolean;
  onRename: (name: string) => void;
  onLeave: () => void;
  onRemove: (username: string) => void;
  onAccept: (requestId: string, checksum: string) => void;
}

/** docs/product.md §2 team leader view: rename, leave, remove members, accept join requests. */
export function LeaderView({ team, busy, onRename, onLeave, onRemove, onAccept }: Props) {
  const [newName, setNewName] = useState('');

  function rename(e: FormEvent) {
    e.preventDefault();
    if (!busy) onRename(newName);
  }

  function leave() {
    if (!busy && window.confirm(UI_TEXT.confirmLeave)) onLeave();
  }

  function accept(requestId: string, checksum: string) {
    if (!busy && window.confirm(UI_TEXT.confirmAccept)) onAccept(requestId, checksum);
  }

  return (
    <>
      <h2 className="h3">Team: {team.name}</h2>
      <Form onSubmit={rename} className="d-flex flex-wrap gap-2 align-items-end my-3">
        <Form.Group controlId="rename-team">
          <Form.Label>New team name</Form.Label>
          <Form.Control
            value={newName}
            onChange={(e) => setNewName(e.target.value)}
            placeholder={team.name}
            maxLength={TEAM_NAME_MAX_LENGTH}
            required
            autoComplete="off"
          />
        </Form.Group>
        <Button type="submit" aria-disabled={busy}>
          Update
        </Button>
      </Form>
      <Button variant="outline-danger" onClick={leave} aria-disabled={busy}>
        Leave Team
      </Button>
      <p className="mt-3">
        Team Leader: <strong>{team.team_leader}</strong>
      </p>
      <section aria-labelledby="members-heading" className="mb-4">
        <h3 id="members-heading" className="h5">
          Members ({team.memberCount}/{MAX_TEAM_SIZE})
        </h3>
        <MemberList members={team.members} leader={team.team_leader} onRemove={onRemove} busy={busy} />
      </section>
      <section aria-labelledby="requests-heading">
        <h3 id="requests-heading" className="h5">
          Join requests
        </h3>
        {team.join_requests.length === 0 ? (
          <p>{UI_TEXT.noRequests}</p>
        ) : (
          <ListGroup as="ul" aria-label="Join requests">
            {team.join_requests.map((r) => (
              <ListGroup.Item
                as="li"
                key={r._id}
                className="d-flex justify-content-between align-items-center gap-2"
              >
                <span>{r.sender_name}</span>
                <Button
                  size="sm"
                  variant="success"
                  aria-disabled={busy}
                  onClick={() => accept(r._id, r.checksum)}
                  aria-label={`Accept Request from ${r.sender_name}`}
                >
                  Accept Request
                </Button>
              </ListGroup.Item>
            ))}
          </ListGroup>
        )}
      </section>
    </>
  );
}
