import { DIVISION_LIMITS, type Division } from '@ctf/contract';
import { useState, type FormEvent } from 'react';
import { Button, Form } from 'react-bootstrap';
import { QueryError } from '../../../components/QueryError';
import { PageLoading } from '../../../components/PageLoading';
import { parseDomains, saveDivisions, useAdminDivisions } from '../api/divisions';
import type { AdminAct } from '../use-admin-action';

interface Row {
  key: number;
  name: string;
  domains: string;
}

let nextKey = 0;
const toRows = (list: readonly Division[]): Row[] =>
  list.map((d) => ({ key: nextKey++, name: d.name, domains: d.emailDomains.join(', ') }));

/**
 * The Settings tab's divisions (issue 19): names and optional e-mail domains, saved as a whole.
 * With none the site has no divisions at all.
 */
export function DivisionsEditor({ act }: { act: AdminAct }) {
  const divisions = useAdminDivisions();
  if (divisions.isError)
    return <QueryError what="the divisions" error={divisions.error} onRetry={() => divisions.refetch()} />;
  if (!divisions.data) return <PageLoading />;
  return <DivisionsForm key={JSON.stringify(divisions.data)} loaded={divisions.data.divisions} act={act} />;
}

function DivisionsForm({ loaded, act }: { loaded: Division[]; act: AdminAct }) {
  const [rows, setRows] = useState<Row[]>(() => toRows(loaded));
  const [busy, setBusy] = useState(false);

  const update = (key: number, patch: Partial<Row>) =>
    setRows((list) => list.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      await act(() =>
        saveDivisions(rows.map((r) => ({ name: r.name, emailDomains: parseDomains(r.domains) }))),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form aria-label="Divisions" className="mt-4" onSubmit={(e) => void submit(e)}>
      <h2 className="h4">Divisions</h2>
      <p className="text-body-secondary">
        Optional brackets (for example First-years and Open), each with its own leaderboard. Players pick one
        on their profile until their first solve; a team plays in its leader’s division. A division limited to
        e-mail domains accepts only players whose e-mail address (as their login provider gives it) is in one
        of them. Removing a division leaves its players with none.
      </p>
      {rows.length === 0 && <p>No divisions: everyone competes on one leaderboard.</p>}
      {rows.map((row, i) => (
        <fieldset key={row.key} className="border rounded p-2 mb-2 d-flex flex-wrap gap-2 align-items-end">
          <legend className="visually-hidden">{`Division ${i + 1}`}</legend>
          <Form.Group controlId={`division-name-${row.key}`}>
            <Form.Label>{`Division ${i + 1} name`}</Form.Label>
            <Form.Control
              value={row.name}
              required
              maxLength={DIVISION_LIMITS.nameMax}
              onChange={(e) => update(row.key, { name: e.target.value })}
            />
          </Form.Group>
          <Form.Group controlId={`division-domains-${row.key}`} className="flex-grow-1">
            <Form.Label>{`Division ${i + 1} e-mail domains`}</Form.Label>
            <Form.Control
              value={row.domains}
              placeholder="Anyone (or e.g. students.example.edu, example.edu)"
              onChange={(e) => update(row.key, { domains: e.target.value })}
            />
          </Form.Group>
          <Button
            variant="outline-danger"
            onClick={() => setRows((list) => list.filter((r) => r.key !== row.key))}
          >
            {`Remove division ${i + 1}`}
          </Button>
        </fieldset>
      ))}
      <div className="d-flex gap-2 mt-2">
        <Button
          variant="outline-primary"
          disabled={rows.length >= DIVISION_LIMITS.maxDivisions}
          onClick={() => setRows((list) => [...list, { key: nextKey++, name: '', domains: '' }])}
        >
          Add Division
        </Button>
        <Button type="submit" aria-disabled={busy}>
          Save Divisions
        </Button>
      </div>
    </Form>
  );
}
