import {
  MESSAGES,
  WRITEUP_MAX_BYTES,
  writeupKindOfName,
  writeupUrlProblem,
  type WriteupSettings,
} from '@ctf/contract';
import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, Form } from 'react-bootstrap';
import { useHandInWriteup, useMyWriteups } from '../api/writeups';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The problem of a chosen file the browser can tell before sending (the server checks the content). */
function fileProblem(file: File): string | null {
  if (!writeupKindOfName(file.name)) return MESSAGES.writeupFileType;
  if (file.size > WRITEUP_MAX_BYTES) return MESSAGES.writeupFileTooLarge;
  if (file.size === 0) return MESSAGES.writeupFileEmpty;
  return null;
}

/**
 * "Your writeup" (issue 32): while collection is open, a competitor that solved the challenge
 * hands in a link or a PDF or Markdown file, and may replace it until the deadline. Shows what
 * was handed in and when, the organisers' note and the deadline in the player's time zone.
 */
export function YourWriteup({ challengeId, settings }: { challengeId: string; settings: WriteupSettings }) {
  const mine = useMyWriteups(true);
  const handIn = useHandInWriteup(challengeId);
  const [kind, setKind] = useState<'link' | 'file'>('link');
  const [url, setUrl] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const current = mine.data?.find((w) => w.challenge_id === challengeId);

  function submit(e: FormEvent) {
    e.preventDefault();
    setDone(false);
    const found =
      kind === 'link' ? writeupUrlProblem(url) : file ? fileProblem(file) : MESSAGES.writeupLinkOrFile;
    setProblem(found);
    if (found) return;
    handIn.mutate(kind === 'link' ? { url: url.trim() } : { file: file! }, {
      onSuccess: () => {
        setDone(true);
        setUrl('');
        setFile(null);
      },
    });
  }

  const error = problem ?? (handIn.isError ? handIn.error.message : null);
  return (
    <Card as="section" className="my-4" aria-labelledby="your-writeup-heading" data-testid="your-writeup">
      <Card.Body>
        <h2 id="your-writeup-heading" className="h5">
          Your writeup
        </h2>
        {settings.note && <p className="text-break">{settings.note}</p>}
        <p>
          {settings.deadline ? (
            <>
              Hand it in by <time dateTime={settings.deadline}>{when(settings.deadline)}</time> (your time).
            </>
          ) : (
            'There is no deadline.'
          )}{' '}
          A link (https) or a PDF or Markdown file of at most 5 MB. Your team hands in one writeup per
          challenge; a new one replaces it.
        </p>
        {current && (
          <p data-testid="current-writeup">
            Handed in <time dateTime={current.submittedAt}>{when(current.submittedAt)}</time>:{' '}
            {current.url ? (
              <a href={current.url} target="_blank" rel="noopener noreferrer nofollow">
                {current.url}
              </a>
            ) : current.file ? (
              <a href={current.file.href} download={current.file.name}>
                {current.file.name}
              </a>
            ) : null}
            {current.reviewed && ' · reviewed'}
            {current.published && ' · published'}
          </p>
        )}
        <Form onSubmit={submit} noValidate>
          <fieldset className="mb-2">
            <legend className="fs-6">Hand in</legend>
            <Form.Check
              inline
              type="radio"
              id="writeup-kind-link"
              name="writeup-kind"
              label="A link"
              checked={kind === 'link'}
              onChange={() => setKind('link')}
            />
            <Form.Check
              inline
              type="radio"
              id="writeup-kind-file"
              name="writeup-kind"
              label="A file"
              checked={kind === 'file'}
              onChange={() => setKind('file')}
            />
          </fieldset>
          {kind === 'link' ? (
            <Form.Group className="mb-2" controlId="writeup-url">
              <Form.Label>Link to your writeup</Form.Label>
              <Form.Control
                type="url"
                inputMode="url"
                placeholder="https://"
                value={url}
                onChange={(e) => setUrl(e.target.value)}
              />
            </Form.Group>
          ) : (
            <Form.Group className="mb-2" controlId="writeup-file">
              <Form.Label>PDF or Markdown file (at most 5 MB)</Form.Label>
              <Form.Control
                type="file"
                accept=".pdf,.md,.markdown,application/pdf,text/markdown"
                onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
              />
            </Form.Group>
          )}
          <div aria-live="polite">
            {error && (
              <Alert variant="danger" className="my-2" data-testid="writeup-error">
                {error}
              </Alert>
            )}
            {done && !error && (
              <Alert variant="success" className="my-2" data-testid="writeup-saved">
                Your writeup was handed in.
              </Alert>
            )}
          </div>
          <Button type="submit" aria-disabled={handIn.isPending}>
            {current ? 'Replace writeup' : 'Hand in writeup'}
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}
