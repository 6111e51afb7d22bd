import { integrityApi, type AuditEntry } from '@ctf/contract';
import { useState } from 'react';
import { useAuditPage, type AuditFilters } from '../api/audit';
import { AdminTable, useCursorPages, type AdminColumn } from './AdminTable';
import { FilterForm } from './FilterForm';
import { QueryState } from './QueryState';

const ACTION_OPTIONS = integrityApi.AUDIT_ACTIONS.map((a) => ({ value: a, label: a }));

const COLUMNS: AdminColumn<AuditEntry>[] = [
  { header: 'Time', cell: (r) => new Date(r.time).toLocaleString() },
  { header: 'Admin', cell: (r) => r.admin },
  { header: 'Action', cell: (r) => <code>{r.action}</code> },
  { header: 'Target', cell: (r) => r.target },
  {
    header: 'Details',
    cell: (r) =>
      Object.keys(r.details).length === 0 ? (
        ''
      ) : (
        <code className="text-break small">{JSON.stringify(r.details)}</code>
      ),
  },
];

/** The admin audit log, newest first, filtered by admin and action (read-only: no edit, no delete). */
export function AuditTab() {
  const [filters, setFilters] = useState<AuditFilters>({ admin: '', action: '' });
  const pages = useCursorPages(JSON.stringify(filters));
  const page = useAuditPage(filters, pages.cursor);
  return (
    <>
      <FilterForm
        label="Audit filters"
        fields={[
          { name: 'admin', label: 'Admin' },
          { name: 'action', label: 'Action', options: ACTION_OPTIONS },
        ]}
        onApply={(v) => setFilters({ admin: v.admin ?? '', action: v.action ?? '' })}
      />
      <QueryState query={page} what="audit log">
        {(data) => (
          <AdminTable
            label="Audit log"
            columns={COLUMNS}
            rows={data.rows}
            rowKey={(r) => r._id}
            empty={
              <p>No admin action recorded{filters.admin || filters.action ? ' for these filters' : ''}.</p>
            }
            paging={pages.paging(data.next_cursor)}
          />
        )}
      </QueryState>
    </>
  );
}
