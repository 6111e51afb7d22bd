import { integrityApi, type SubmissionRow } from '@ctf/contract';
import { useState } from 'react';
import { Badge } from 'react-bootstrap';
import { submissionsCsvUrl, useSubmissionsPage, type SubmissionFilterValues } from '../api/submissions';
import { AdminTable, useCursorPages, type AdminColumn } from './AdminTable';
import { FilterForm } from './FilterForm';
import { QueryState } from './QueryState';

const EMPTY: SubmissionFilterValues = {
  user: '',
  team: '',
  challenge: '',
  result: '',
  q: '',
  from: '',
  to: '',
};

const RESULT_VARIANT: Record<SubmissionRow['result'], string> = {
  correct: 'success',
  wrong: 'secondary',
  rate_limited: 'warning',
  already_solved: 'info',
  no_attempts_left: 'dark',
};

const COLUMNS: AdminColumn<SubmissionRow>[] = [
  { header: 'Time', cell: (r) => new Date(r.time).toLocaleString() },
  { header: 'User', cell: (r) => r.username },
  { header: 'Team', cell: (r) => r.team },
  { header: 'Challenge', cell: (r) => r.challenge },
  { header: 'Result', cell: (r) => <Badge bg={RESULT_VARIANT[r.result]}>{r.result}</Badge> },
  {
    header: 'Submitted',
    cell: (r) => (r.submitted === undefined ? '' : <code className="text-break">{r.submitted}</code>),
  },
  { header: 'Address', cell: (r) => r.address },
];

/** Every flag attempt, newest first: filters, server-side pages and a CSV export of the same filters. */
export function SubmissionsTab() {
  const [filters, setFilters] = useState<SubmissionFilterValues>(EMPTY);
  const pages = useCursorPages(JSON.stringify(filters));
  const page = useSubmissionsPage(filters, pages.cursor);
  return (
    <>
      <FilterForm
        label="Submission filters"
        fields={[
          { name: 'user', label: 'User' },
          { name: 'team', label: 'Team' },
          { name: 'challenge', label: 'Challenge' },
          {
            name: 'result',
            label: 'Result',
            options: integrityApi.SUBMISSION_RESULTS.map((r) => ({ value: r, label: r })),
          },
          { name: 'q', label: 'Text contains' },
          { name: 'from', label: 'From', type: 'datetime-local' },
          { name: 'to', label: 'To', type: 'datetime-local' },
        ]}
        onApply={(v) => setFilters({ ...EMPTY, ...v })}
        extra={
          <a className="btn btn-sm btn-outline-primary ms-1" href={submissionsCsvUrl(filters)} download>
            Export CSV
          </a>
        }
      />
      <QueryState query={page} what="submissions">
        {(data) => (
          <AdminTable
            label="Submissions"
            columns={COLUMNS}
            rows={data.rows}
            rowKey={(r) => r._id}
            empty={
              <p>
                No flag attempt recorded
                {JSON.stringify(filters) === JSON.stringify(EMPTY) ? '' : ' for these filters'}.
              </p>
            }
            paging={pages.paging(data.next_cursor)}
          />
        )}
      </QueryState>
    </>
  );
}
