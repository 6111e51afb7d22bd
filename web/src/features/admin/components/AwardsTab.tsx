import {
  AWARD_POINTS_MAX,
  AWARD_REASON_MAX_LENGTH,
  adminApi,
  awardsApi,
  type AdminAward,
} from '@ctf/contract';
import { useMayCall } from '../staff-role';
import { useState, type FormEvent } from 'react';
import { Button, Form } from 'react-bootstrap';
import { deleteAward, giveAward, useAdminAwards } from '../api/awards';
import { useAdminTeams } from '../api/teams';
import { useAdminUsers } from '../api/users';
import type { AdminAct } from '../use-admin-action';
import { AdminTable, type AdminColumn } from './AdminTable';
import { QueryState } from './QueryState';

const given = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const EMPTY = { kind: 'user' as 'user' | 'team', id: '', points: '', reason: '' };

/** Who got an award, as the list shows it: the user (and the team it counts for), or the team. */
export function awardRecipient(a: AdminAward): string {
  if (a.user_id !== null) return `${a.user ?? '(removed user)'}${a.team ? ` (team ${a.team})` : ''}`;
  return a.team === null ? '(removed team)' : `Team ${a.team}`;
}

/**
 * Awards (docs/scoring.md "Awards"): give a user or a team points (negative: a penalty) with a
 * reason, and delete one after a confirmation. They count on the board like solves.
 */
export function AwardsTab({ act }: { act: AdminAct }) {
  const awards = useAdminAwards();
  const [form, setForm] = useState(EMPTY);
  // A monitor reads the awards; giving and deleting them are an admin's.
  const writes = useMayCall()(awardsApi.giveAward);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const outcome = await act(() =>
      giveAward({ kind: form.kind, id: form.id }, Number(form.points), form.reason),
    );
    if (outcome.success) setForm({ ...EMPTY, kind: form.kind });
  }

  const columns: AdminColumn<AdminAward>[] = [
    { header: 'Given', cell: (a) => given.format(new Date(a.time)) },
    { header: 'To', cell: awardRecipient },
    { header: 'Points', cell: (a) => (a.points > 0 ? `+${a.points}` : String(a.points)) },
    { header: 'Reason', cell: (a) => a.reason },
  ];
  if (writes)
    columns.push({
      header: 'Actions',
      hideHeader: true,
      end: true,
      cell: (a) => (
        <Button
          size="sm"
          variant="outline-danger"
          aria-label={`Delete award ${a.reason} to ${awardRecipient(a)}`}
          onClick={() => {
            if (window.confirm(adminApi.confirmDeleteText('award'))) void act(() => deleteAward(a._id));
          }}
        >
          Delete
        </Button>
      ),
    });

  return (
    <>
      {writes && (
        <Form onSubmit={(e) => void submit(e)} className="mb-4" aria-label="Give an award">
          <h2 className="h5">Give an award</h2>
          <Form.Group className="mb-2" controlId="award-kind">
            <Form.Label>To</Form.Label>
            <Form.Select
              value={form.kind}
              onChange={(e) => setForm({ ...form, kind: e.target.value as 'user' | 'team', id: '' })}
            >
              <option value="user">A user</option>
              <option value="team">A team</option>
            </Form.Select>
          </Form.Group>
          <RecipientPicker kind={form.kind} value={form.id} onChange={(id) => setForm({ ...form, id })} />
          <Form.Group className="mb-2" controlId="award-points">
            <Form.Label>Points (negative for a penalty)</Form.Label>
            <Form.Control
              type="number"
              required
              step={1}
              min={-AWARD_POINTS_MAX}
              max={AWARD_POINTS_MAX}
              value={form.points}
              onChange={(e) => setForm({ ...form, points: e.target.value })}
            />
          </Form.Group>
          <Form.Group className="mb-2" controlId="award-reason">
            <Form.Label>Reason (shown to the player)</Form.Label>
            <Form.Control
              required
              maxLength={AWARD_REASON_MAX_LENGTH}
              value={form.reason}
              onChange={(e) => setForm({ ...form, reason: e.target.value })}
            />
          </Form.Group>
          <Button type="submit">Give award</Button>
        </Form>
      )}
      <QueryState query={awards} what="awards">
        {(list) => (
          <AdminTable
            label="Awards"
            columns={columns}
            rows={list}
            rowKey={(a) => a._id}
            search={{ label: 'Search awards', text: (a) => `${awardRecipient(a)} ${a.reason}` }}
            empty={<p>No awards yet.</p>}
          />
        )}
      </QueryState>
    </>
  );
}

/** The user or team select, by name, from the admin's lists. */
function RecipientPicker({
  kind,
  value,
  onChange,
}: {
  kind: 'user' | 'team';
  value: string;
  onChange: (id: string) => void;
}) {
  const users = useAdminUsers();
  const teams = useAdminTeams();
  const options =
    kind === 'user'
      ? (users.data ?? []).map((u) => ({ id: u._id, name: u.username }))
      : (teams.data ?? []).map((t) => ({ id: t._id, name: t.name }));
  const sorted = [...options].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Form.Group className="mb-2" controlId="award-recipient">
      <Form.Label>{kind === 'user' ? 'User' : 'Team'}</Form.Label>
      <Form.Select required value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Choose a {kind}</option>
        {sorted.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </Form.Select>
    </Form.Group>
  );
}
