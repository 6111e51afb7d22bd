import { UI_TEXT, adminApi } from '@ctf/contract';
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Button, Form, ListGroup } from 'react-bootstrap';
import { useRefreshAfterAdminAction } from '../api/action';
import { deleteFile, uploadFile, useUploads } from '../api/files';
import type { AdminAct } from '../use-admin-action';
import { nonZipNames, summaryVariant, uploadEach, type UploadResult } from '../upload';
import { QueryState } from './QueryState';

/**
 * Upload: several ZIP files, one request each, then a summary with a tick or cross per file
 * (docs/product.md §5, §8); below, the stored files with Delete.
 */
export function UploadTab({ act }: { act: AdminAct }) {
  const input = useRef<HTMLInputElement>(null);
  const [selected, setSelected] = useState<File[]>([]);
  const [results, setResults] = useState<UploadResult[] | 'failed' | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = useRefreshAfterAdminAction();
  const uploads = useUploads();

  function clearSelection() {
    if (input.current) input.current.value = '';
    setSelected([]);
  }

  function choose(e: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(e.target.files ?? []);
    const invalid = nonZipNames(files);
    if (invalid.length > 0) {
      window.alert(UI_TEXT.onlyZip + invalid.join(', '));
      clearSelection();
      return;
    }
    setSelected(files);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    if (selected.length === 0) {
      window.alert(UI_TEXT.selectZip);
      return;
    }
    setBusy(true);
    setResults(null);
    try {
      const outcome = await uploadEach(selected, uploadFile);
      setResults(outcome ?? 'failed');
      clearSelection();
      if (outcome?.some((r) => r.success)) await refresh();
    } catch (err) {
      console.error(err);
      setResults('failed');
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Form onSubmit={(e) => void submit(e)} aria-label="Upload files">
        <Form.Group controlId="admin-upload-files" className="mb-2">
          <Form.Label>ZIP files</Form.Label>
          <Form.Control ref={input} type="file" multiple accept=".zip" onChange={choose} disabled={busy} />
          <Form.Text>One or more .zip archives; each is uploaded on its own.</Form.Text>
        </Form.Group>
        <Button type="submit" aria-disabled={busy}>
          {busy ? 'Uploading…' : 'Upload'}
        </Button>
      </Form>
      <UploadSummary results={results} />
      <h2 className="h5 mt-4">Uploaded files</h2>
      <QueryState query={uploads} what="uploaded files">
        {(names) =>
          names.length === 0 ? (
            <p>No files uploaded yet.</p>
          ) : (
            <ListGroup aria-label="Uploaded files">
              {names.map((name) => (
                <ListGroup.Item key={name} className="d-flex justify-content-between align-items-center">
                  <span>{name}</span>
                  <Button
                    size="sm"
                    variant="outline-danger"
                    aria-label={`Delete file ${name}`}
                    onClick={() => {
                      if (window.confirm(adminApi.confirmDeleteText('file')))
                        void act(() => deleteFile(name));
                    }}
                  >
                    Delete
                  </Button>
                </ListGroup.Item>
              ))}
            </ListGroup>
          )
        }
      </QueryState>
    </>
  );
}

function UploadSummary({ results }: { results: UploadResult[] | 'failed' | null }) {
  if (results === null) return null;
  if (results === 'failed') {
    return (
      <p className="text-danger mt-3" role="alert" data-testid="upload-summary">
        {UI_TEXT.uploadFailed}
      </p>
    );
  }
  const succeeded = results.filter((r) => r.success).length;
  return (
    <div
      className={`upload-summary text-${summaryVariant(results)} mt-3`}
      role="status"
      data-testid="upload-summary"
    >
      <p className="mb-1 fw-semibold">{adminApi.uploadSummaryText(succeeded, results.length)}</p>
      <ul className="list-unstyled mb-0">
        {results.map((r, i) => (
          <li key={`${r.name}-${i}`}>
            <span aria-hidden="true">{r.success ? '✓' : '✗'}</span>{' '}
            <span className="visually-hidden">{r.success ? 'Uploaded: ' : 'Failed: '}</span>
            {r.name}: {r.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
