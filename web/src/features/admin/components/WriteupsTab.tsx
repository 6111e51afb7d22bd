import { writeupsApi, type AdminWriteup } from '@ctf/contract';
import { useState, type FormEvent } from 'react';
import { Button, Form } from 'react-bootstrap';
import { useSiteInfo } from '../../../lib/site-info';
import { WRITEUPS_ZIP_URL, reviewWriteup, useAdminWriteups } from '../api/writeups';
import { useMayCall } from '../staff-role';
import type { AdminAct } from '../use-admin-action';
import { AdminTable, type AdminColumn } from './AdminTable';
import { QueryState } from './QueryState';

const handedIn = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const NO_FILTERS = { challenge_id: '', competitor: '', division: '' };

/**
 * Writeups (issue 32): every writeup handed in, filtered by challenge, competitor or division;
 * open one (a link, or the file served safely), mark it reviewed, publish it (shown on the
 * challenge page after the event), and download them all as one ZIP with index.csv.
 */
export function WriteupsTab({ act }: { act: AdminAct }) {
  const [draft, setDraft] = useState(NO_FILTERS);
  const [filters, setFilters] = useState(NO_FILTERS);
  const writeups = useAdminWriteups(filters);
  // The challenges that have writeups, from the unfiltered list (the same query when no filter is set).
  const all = useAdminWriteups(NO_FILTERS);
  const challenges = [...new Map((all.data ?? []).map((w) => [w.challenge_id, w.challenge])).entries()].sort(
    (a, b) => a[1].localeCompare(b[1]),
  );
  const divisions = useSiteInfo().data?.divisions ?? [];
  // A monitor reads them; reviewing and publishing are an admin's.
  const writes = useMayCall()(writeupsApi.reviewWriteup);

  function apply(e: FormEvent) {
    e.preventDefault();
    setFilters({ ...draft, competitor: draft.competitor.trim() });
  }

  const toggle = (w: AdminWriteup, field: 'reviewed' | 'published', label: string) => (
    <Form.Check
      type="switch"
      id={`writeup-${field}-${w._id}`}
      label={label}
      checked={w[field]}
      disabled={!writes}
      onChange={(e) => {
        const next = { reviewed: w.reviewed, published: w.published, [field]: e.target.checked };
        void act(() => reviewWriteup(w._id, next.reviewed, next.published));
      }}
    />
  );

  const columns: AdminColumn<AdminWriteup>[] = [
    { header: 'Challenge', cell: (w) => w.challenge },
    { header: 'Competitor', cell: (w) => w.competitor },
    { header: 'Division', cell: (w) => w.division ?? '' },
    {
      header: 'Writeup',
      cell: (w) =>
        w.url ? (
          <a href={w.url} target="_blank" rel="noopener noreferrer nofollow" className="text-break">
            {w.url}
          </a>
        ) : w.file ? (
          <a href={w.file.href} target="_blank" rel="noopener noreferrer" className="text-break">
            Open {w.file.name}
          </a>
        ) : null,
    },
    { header: 'Handed in', cell: (w) => handedIn.format(new Date(w.submittedAt)) },
    { header: 'Reviewed', cell: (w) => toggle(w, 'reviewed', 'Reviewed'), nowrap: true },
    { header: 'Published', cell: (w) => toggle(w, 'published', 'Published'), nowrap: true },
  ];

  return (
    <>
      <p>
        Players hand in writeups of the challenges they solved while collection is open (Settings tab).
        Markdown files open as plain text; PDF files download. Published writeups appear on the challenge page
        after the event.
      </p>
      <p>
        <a className="btn btn-outline-primary" href={WRITEUPS_ZIP_URL} download>
          Download all (ZIP)
        </a>
      </p>
      <Form onSubmit={apply} className="row g-2 align-items-end mb-3" aria-label="Filter writeups">
        <Form.Group className="col-sm-4" controlId="writeups-challenge">
          <Form.Label>Challenge</Form.Label>
          <Form.Select
            value={draft.challenge_id}
            onChange={(e) => setDraft({ ...draft, challenge_id: e.target.value })}
          >
            <option value="">All challenges</option>
            {challenges.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group className="col-sm-3" controlId="writeups-competitor">
          <Form.Label>Competitor</Form.Label>
          <Form.Control
            value={draft.competitor}
            onChange={(e) => setDraft({ ...draft, competitor: e.target.value })}
          />
        </Form.Group>
        {divisions.length > 0 && (
          <Form.Group className="col-sm-3" controlId="writeups-division">
            <Form.Label>Division</Form.Label>
            <Form.Select
              value={draft.division}
              onChange={(e) => setDraft({ ...draft, division: e.target.value })}
            >
              <option value="">All divisions</option>
              {divisions.map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        )}
        <div className="col-sm-2">
          <Button type="submit" variant="secondary">
            Filter
          </Button>
        </div>
      </Form>
      <QueryState query={writeups} what="writeups">
        {(list) => (
          <AdminTable
            label="Writeups"
            columns={columns}
            rows={list}
            rowKey={(w) => w._id}
            rowTestId="writeup-row"
            empty={<p>No writeups handed in{filters === NO_FILTERS ? ' yet' : ' match these filters'}.</p>}
          />
        )}
      </QueryState>
    </>
  );
}
