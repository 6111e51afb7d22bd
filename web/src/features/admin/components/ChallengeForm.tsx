import {
  CATEGORIES,
  CHALLENGE_AUTHOR_MAX_LENGTH,
  CHALLENGE_DESCRIPTION_MAX_LENGTH,
  CHALLENGE_NAME_MAX_LENGTH,
  DIFFICULTIES,
  FLAG_MAX_LENGTH,
  pointsFor,
  type Category,
  type Difficulty,
} from '@ctf/contract';
import { useId, useState, type FormEvent } from 'react';
import { Button, Col, Form, Row } from 'react-bootstrap';
import type { ChallengeForm as ChallengeFormBody } from '../api/challenges';
import { QueryError } from '../../../components/QueryError';
import { useUploads } from '../api/files';

/** The fields while editing: selects may still be empty. */
export interface ChallengeFormValues {
  name: string;
  written_by: string;
  category: Category | '';
  difficulty: Difficulty | '';
  flag: string;
  description: string;
  files: string[];
}

export const EMPTY_CHALLENGE: ChallengeFormValues = {
  name: '',
  written_by: '',
  category: '',
  difficulty: '',
  flag: '',
  description: '',
  files: [],
};

const REQUIRED_TEXT = 'Name, author, category, difficulty and flag are required.';

/**
 * SPEC.md §5 challenge form, for Create Challenge and for editing: name, author, category,
 * difficulty and flag are required; points are read-only, derived from the difficulty (the server
 * derives them again and ignores what is sent); attached files are chosen from the uploads.
 */
export function ChallengeForm({
  initial,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
}: {
  initial: ChallengeFormValues;
  submitLabel: string;
  busy: boolean;
  onSubmit: (body: ChallengeFormBody) => void;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState<ChallengeFormValues>(initial);
  const [error, setError] = useState('');
  const uploads = useUploads();
  const id = useId();
  const set = <K extends keyof ChallengeFormValues>(key: K, value: ChallengeFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  // A file attached earlier but since deleted stays listed, so saving shows the server's refusal.
  const fileChoices = [...new Set([...(uploads.data ?? []), ...initial.files])].sort();

  function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const { category, difficulty } = values;
    if (!values.name.trim() || !values.written_by.trim() || !values.flag.trim() || !category || !difficulty) {
      setError(REQUIRED_TEXT);
      return;
    }
    setError('');
    onSubmit({ ...values, category, difficulty, points: pointsFor(difficulty) });
  }

  function toggleFile(name: string, checked: boolean) {
    set('files', checked ? [...values.files, name] : values.files.filter((f) => f !== name));
  }

  return (
    <Form onSubmit={submit} aria-label={submitLabel}>
      <Row className="g-3">
        <Form.Group as={Col} md={6} controlId={`${id}-name`}>
          <Form.Label>Name</Form.Label>
          <Form.Control
            value={values.name}
            onChange={(e) => set('name', e.target.value)}
            required
            maxLength={CHALLENGE_NAME_MAX_LENGTH}
            autoComplete="off"
          />
        </Form.Group>
        <Form.Group as={Col} md={6} controlId={`${id}-author`}>
          <Form.Label>Written by</Form.Label>
          <Form.Control
            value={values.written_by}
            onChange={(e) => set('written_by', e.target.value)}
            required
            maxLength={CHALLENGE_AUTHOR_MAX_LENGTH}
            autoComplete="off"
          />
        </Form.Group>
        <Form.Group as={Col} md={4} controlId={`${id}-category`}>
          <Form.Label>Category</Form.Label>
          <Form.Select
            value={values.category}
            onChange={(e) => set('category', e.target.value as Category)}
            required
          >
            <option value="" disabled>
              Select a category
            </option>
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group as={Col} md={4} controlId={`${id}-difficulty`}>
          <Form.Label>Difficulty</Form.Label>
          <Form.Select
            value={values.difficulty}
            onChange={(e) => set('difficulty', e.target.value as Difficulty)}
            required
          >
            <option value="" disabled>
              Select a difficulty
            </option>
            {DIFFICULTIES.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group as={Col} md={4} controlId={`${id}-points`}>
          <Form.Label>Points</Form.Label>
          <Form.Control
            readOnly
            value={values.difficulty ? String(pointsFor(values.difficulty)) : ''}
            placeholder="From difficulty"
            aria-describedby={`${id}-points-help`}
          />
          <Form.Text id={`${id}-points-help`}>Set by the difficulty.</Form.Text>
        </Form.Group>
        <Form.Group as={Col} xs={12} controlId={`${id}-flag`}>
          <Form.Label>Flag</Form.Label>
          <Form.Control
            value={values.flag}
            onChange={(e) => set('flag', e.target.value)}
            required
            maxLength={FLAG_MAX_LENGTH}
            autoComplete="off"
            spellCheck={false}
          />
        </Form.Group>
        <Form.Group as={Col} xs={12} controlId={`${id}-description`}>
          <Form.Label>Description</Form.Label>
          <Form.Control
            as="textarea"
            rows={6}
            value={values.description}
            onChange={(e) => set('description', e.target.value)}
            maxLength={CHALLENGE_DESCRIPTION_MAX_LENGTH}
          />
          <Form.Text>HTML is allowed; scripts and unsafe markup are removed when it is saved.</Form.Text>
        </Form.Group>
        <Col xs={12}>
          <fieldset>
            <legend className="form-label fs-6">Files</legend>
            {uploads.isPending && <p>Loading files…</p>}
            {uploads.isError && (
              <QueryError what="the uploaded files" error={uploads.error} onRetry={() => uploads.refetch()} />
            )}
            {uploads.data && fileChoices.length === 0 && (
              <p className="text-body-secondary">No files uploaded yet (use the Upload tab).</p>
            )}
            {fileChoices.map((name, index) => (
              <Form.Check
                key={name}
                id={`${id}-file-${index}`}
                type="checkbox"
                label={name}
                checked={values.files.includes(name)}
                onChange={(e) => toggleFile(name, e.target.checked)}
              />
            ))}
          </fieldset>
        </Col>
      </Row>
      {error && (
        <p className="text-danger mt-3" role="alert">
          {error}
        </p>
      )}
      <div className="d-flex gap-2 mt-3">
        <Button type="submit" aria-disabled={busy}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="outline-secondary" onClick={() => !busy && onCancel()} aria-disabled={busy}>
            Back to list
          </Button>
        )}
      </div>
    </Form>
  );
}
