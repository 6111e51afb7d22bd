import type { User } from '@ctf/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Alert, Button, Form } from 'react-bootstrap';
import { describeFailure } from '../../../components/QueryError';
import { queryKeys } from '../../../lib/query';
import { useSiteInfo } from '../../../lib/site-info';
import { pickDivision } from '../api/division';
import { ValueOptions } from '../../../components/ValueOptions';

/**
 * The profile's division picker (issue 19): shown only while the site has divisions. The server
 * decides (e-mail domains, the lock after the first solve, the team's division) and its message
 * is shown as it says it.
 */
export function DivisionPicker({ user }: { user: User }) {
  const client = useQueryClient();
  const divisions = useSiteInfo().data?.divisions ?? [];
  const current = user.division ?? null;
  const [choice, setChoice] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const selectId = useId();
  if (divisions.length === 0) return null;
  const selected = choice ?? current ?? '';

  async function save() {
    setBusy(true);
    setOutcome(null);
    try {
      const res = await pickDivision(selected === '' ? null : selected);
      if (res.ok) {
        setOutcome({ ok: true, message: res.data.message });
        setChoice(null);
        await Promise.all([
          client.invalidateQueries({ queryKey: queryKeys.userInfo }),
          client.invalidateQueries({ queryKey: queryKeys.leaderboard }),
        ]);
      } else {
        setOutcome({ ok: false, message: res.message || `The division could not be saved (${res.status}).` });
      }
    } catch (err) {
      setOutcome({ ok: false, message: describeFailure(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby={`${selectId}-heading`} className="my-3">
      <h2 id={`${selectId}-heading`} className="h4">
        Division
      </h2>
      <p className="text-body-secondary mb-2">
        {user.completions.length > 0
          ? `You compete in ${current ?? 'no division'}: a division cannot change after your first solve.`
          : 'You can change your division until your first solve. A team plays in its leader’s division.'}
      </p>
      <Form
        className="d-flex flex-wrap align-items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Form.Group controlId={selectId}>
          <Form.Label>Your division</Form.Label>
          <Form.Select value={selected} onChange={(e) => setChoice(e.target.value)}>
            <option value="">No division</option>
            <ValueOptions values={divisions} />
          </Form.Select>
        </Form.Group>
        <Button type="submit" disabled={busy || selected === (current ?? '')}>
          Save division
        </Button>
      </Form>
      {outcome && (
        <Alert
          variant={outcome.ok ? 'success' : 'danger'}
          className="mt-2 mb-0"
          role={outcome.ok ? 'status' : 'alert'}
        >
          {outcome.message}
        </Alert>
      )}
    </section>
  );
}
