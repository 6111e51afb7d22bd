import { integrityApi, type Signal } from '@ctf/contract';
import { Badge, Button } from 'react-bootstrap';
import { useSignals } from '../api/signals';
import { AdminTable, type AdminColumn } from './AdminTable';
import { QueryState } from './QueryState';

const KIND_LABEL: Record<Signal['kind'], string> = {
  same_address_solves: 'Same address, same solve',
  shared_address: 'Shared address',
  other_flag: "Another challenge's flag",
  other_team_flag: "Another competitor's per-team flag (certain)",
  burst: 'Burst of wrong flags',
};

/** Opens the Submissions tab on these rows. */
type ShowEvidence = (submissionIds: string[]) => void;

const columns = (showEvidence: ShowEvidence): AdminColumn<Signal>[] => [
  {
    header: 'Signal',
    cell: (s) => (
      <Badge bg="warning" text="dark">
        {KIND_LABEL[s.kind]}
      </Badge>
    ),
  },
  { header: 'What was seen', cell: (s) => s.summary },
  { header: 'Competitors', cell: (s) => s.competitors.join(', ') },
  {
    header: 'Evidence (submission rows)',
    cell: (s) => {
      const ids = s.submission_ids.slice(0, integrityApi.EVIDENCE_IDS_MAX);
      return (
        <>
          <Button variant="link" size="sm" className="p-0 text-start" onClick={() => showEvidence(ids)}>
            Show {ids.length === 1 ? 'row' : `${ids.length} rows`} in Submissions
          </Button>
          <span className="d-block text-break small text-body-secondary">{s.submission_ids.join(', ')}</span>
        </>
      );
    },
  },
];

/**
 * Cheating signals: hints for a human to look into (nothing is done automatically). Each signal's
 * evidence link opens the Submissions tab on the log rows it rests on.
 */
export function IntegrityTab({ onShowEvidence }: { onShowEvidence: ShowEvidence }) {
  const signals = useSignals();
  return (
    <>
      <p className="text-body-secondary">
        Hints to look into, never proof: each names the submission log rows it rests on (Submissions tab).
      </p>
      <QueryState query={signals} what="signals">
        {(list) => (
          <AdminTable
            label="Signals"
            columns={columns(onShowEvidence)}
            rows={list}
            rowKey={(s) => `${s.kind}:${s.submission_ids.join(',')}`}
            empty={<p>No signal: nothing unusual in the submission log.</p>}
          />
        )}
      </QueryState>
    </>
  );
}
