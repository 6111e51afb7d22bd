import { integrityApi, seesSubmittedText, type SubmissionRow } from '@ctf/contract';
import { useState } from 'react';
import { Alert, Badge, Button } from 'react-bootstrap';
import { submissionsCsvUrl, useSubmissionsPage, type SubmissionFilterValues } from '../api/submissions';
import { AdminTable, useCursorPages, type AdminColumn } from './AdminTable';
import { FilterForm } from './FilterForm';
import { QueryState } from './QueryState';
import { useStaffRole } from '../staff-role';

const EMPTY: SubmissionFilterValues = {
  user: '',
  team: '',
  challenge: '',
  result: '',
  q: '',
  from: '',
  to: '',
  ids: '',
};

const RESULT_VARIANT: Record<SubmissionRow['result'], string> = {
  correct: 'success',
  wrong: 'secondary',
  rate_limited: 'warning',
  already_solved: 'info',
  no_attempts_left: 'dark',
};

const COLUMNS: AdminColumn<SubmissionRow>[] = [
  { header: 'Row', cell: (r) => r._id },
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

/**
 * Every flag attempt, newest first: filters, server-side pages and a CSV export of the same filters.
 * Opened from a signal's evidence link (Integrity tab), it shows just those rows until the filters
 * are applied or "Show all submissions" is pressed.
 */
export function SubmissionsTab({ evidence }: { evidence?: readonly string[] }) {
  const [filters, setFilters] = useState<SubmissionFilterValues>(() =>
    evidence?.length ? { ...EMPTY, ids: evidence.join(',') } : EMPTY,
  );
  const pages = useCursorPages(JSON.stringify(filters));
  const page = useSubmissionsPage(filters, pages.cursor);
  // Only an admin reads (and searches) the submitted text: it may be another team's flag.
  const seesText = seesSubmittedText(useStaffRole());
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
          ...(seesText ? [{ name: 'q' as const, label: 'Text contains' }] : []),
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
      {filters.ids && (
        <Alert variant="info" className="py-2" data-testid="evidence-note">
          Showing the evidence of a signal: rows {filters.ids.split(',').join(', ')}.{' '}
          <Button
            variant="link"
            size="sm"
            className="p-0 align-baseline alert-link"
            onClick={() => setFilters(EMPTY)}
          >
            Show all submissions
          </Button>
        </Alert>
      )}
      <QueryState query={page} what="submissions">
        {(data) => (
          <AdminTable
            label="Submissions"
            columns={seesText ? COLUMNS : COLUMNS.filter((c) => c.header !== 'Submitted')}
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
