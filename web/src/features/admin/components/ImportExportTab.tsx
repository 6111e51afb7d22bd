import { UI_TEXT, adminApi, type ImportIssue, type ImportResult } from '@ctf/contract';
import { useRef, useState, type ChangeEvent } from 'react';
import { Alert, Button, Form } from 'react-bootstrap';
import { useRefreshAfterAdminAction } from '../api/action';
import { EXPORT_URL, importArchive } from '../api/challenge-archive';
import { AdminTable, type AdminColumn } from './AdminTable';

type Row = ImportIssue & { n: number };

const ISSUE_COLUMNS: AdminColumn<Row>[] = [
  { header: 'File', cell: (i) => i.file || '(archive)' },
  { header: 'Line', cell: (i) => i.line ?? '' },
  { header: 'Message', cell: (i) => i.message },
];
const issueKey = (i: Row) => String(i.n);
const numbered = (list: ImportIssue[]): Row[] => list.map((i, n) => ({ ...i, n }));

/**
 * Import / Export (issue 17): a ZIP of challenge.yml folders (ctfcli spec 0.1) is checked with a dry
 * run or imported, and the answer lists what was (or would be) created and updated, the warnings
 * and every error with its file and line. Export downloads every challenge in the same format.
 */
export function ImportExportTab() {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState<'dry' | 'import' | null>(null);
  const [result, setResult] = useState<{ dryRun: boolean; result: ImportResult } | null>(null);
  const [failed, setFailed] = useState(false);
  const refresh = useRefreshAfterAdminAction();

  function choose(e: ChangeEvent<HTMLInputElement>) {
    const chosen = e.target.files?.[0] ?? null;
    setResult(null);
    setFailed(false);
    if (chosen && !adminApi.looksLikeZip(chosen.name, chosen.type)) {
      window.alert(UI_TEXT.onlyZip + chosen.name);
      if (input.current) input.current.value = '';
      setFile(null);
      return;
    }
    setFile(chosen);
  }

  async function run(dryRun: boolean) {
    if (busy) return;
    if (!file) {
      window.alert(UI_TEXT.selectZip);
      return;
    }
    setBusy(dryRun ? 'dry' : 'import');
    setResult(null);
    setFailed(false);
    try {
      const answer = await importArchive(file, dryRun);
      setResult({ dryRun, result: answer });
      if (!dryRun && answer.acknowledge) await refresh();
    } catch (err) {
      console.error(err);
      setFailed(true);
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      <h2 className="h5">Import challenge.yml archive</h2>
      <Form onSubmit={(e) => e.preventDefault()} aria-label="Import challenges">
        <Form.Group controlId="admin-import-archive" className="mb-2">
          <Form.Label>Challenge archive (ZIP)</Form.Label>
          <Form.Control ref={input} type="file" accept=".zip" onChange={choose} disabled={busy !== null} />
          <Form.Text>
            A ZIP of challenge folders, each a challenge.yml (ctfcli spec 0.1) with its files. Existing
            challenges are matched by name and updated.
          </Form.Text>
        </Form.Group>
        <div className="d-flex gap-2">
          <Button variant="outline-primary" aria-disabled={busy !== null} onClick={() => void run(true)}>
            {busy === 'dry' ? 'Checking…' : 'Dry run'}
          </Button>
          <Button aria-disabled={busy !== null} onClick={() => void run(false)}>
            {busy === 'import' ? 'Importing…' : 'Import'}
          </Button>
        </div>
      </Form>
      {failed && (
        <Alert variant="danger" className="mt-3" role="alert">
          {UI_TEXT.uploadFailed}
        </Alert>
      )}
      {result && <ImportReport dryRun={result.dryRun} result={result.result} />}
      <h2 className="h5 mt-4">Export</h2>
      <p>Every challenge as challenge.yml folders with their files, in one ZIP.</p>
      <a className="btn btn-outline-secondary" href={EXPORT_URL} download>
        Export challenges (ZIP)
      </a>
    </>
  );
}

function ImportReport({ dryRun, result }: { dryRun: boolean; result: ImportResult }) {
  const ok = result.errors.length === 0 && result.acknowledge;
  const names = (label: string, list: string[]) =>
    list.length > 0 && (
      <p className="mb-1">
        <span className="fw-semibold">{label}:</span> {list.join(', ')}
      </p>
    );
  return (
    <section className="mt-3" aria-label="Import result" data-testid="import-result">
      <Alert variant={ok ? 'success' : 'danger'} role={ok ? 'status' : 'alert'}>
        <p className="mb-1 fw-semibold">{result.message}</p>
        {names(dryRun ? 'Would create' : 'Created', result.created)}
        {names(dryRun ? 'Would update' : 'Updated', result.updated)}
      </Alert>
      <IssueTable title="Warnings" label="Import warnings" issues={result.warnings} />
      <IssueTable title="Errors" label="Import errors" issues={result.errors} />
    </section>
  );
}

/** The import's warnings or errors under their heading, one numbered row each; nothing when none. */
function IssueTable({ title, label, issues }: { title: string; label: string; issues: ImportIssue[] }) {
  if (issues.length === 0) return null;
  return (
    <>
      <h3 className="h6">{title}</h3>
      <AdminTable
        label={label}
        columns={ISSUE_COLUMNS}
        rows={numbered(issues)}
        rowKey={issueKey}
        empty={null}
      />
    </>
  );
}
