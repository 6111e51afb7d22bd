import {
  CATEGORIES,
  CHALLENGE_AUTHOR_MAX_LENGTH,
  CHALLENGE_DESCRIPTION_MAX_LENGTH,
  CHALLENGE_NAME_MAX_LENGTH,
  DIFFICULTIES,
  MAX_ATTEMPTS_LIMIT,
  pointsFor,
} from '@ctf/contract';
import { useId, useState, type FormEvent } from 'react';
import { Button, Col, Form, Row } from 'react-bootstrap';
import { useAdminChallenges, type ChallengeForm as ChallengeFormBody } from '../api/challenges';
import { QueryError } from '../../../components/QueryError';
import { useUploads } from '../api/files';
import { checkChallengeForm, type ChallengeFormValues } from '../challenge-form-values';
import { ChoiceField, ScoringFields, WholeNumberField } from './ChallengeFormFields';
import { FlagListEditor } from './FlagListEditor';
import { HintListEditor } from './HintListEditor';
import { InstanceFields } from './InstanceFields';
import { SolutionFields } from './SolutionFields';

/**
 * docs/product.md §5 challenge form, for Create Challenge and for editing: name, author, category,
 * difficulty and flag are required; points are read-only, derived from the difficulty (the server
 * derives them again and ignores what is sent); attached files are chosen from the uploads.
 */
export function ChallengeForm({
  initial,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
  selfId,
}: {
  initial: ChallengeFormValues;
  /** The edited challenge's `_id` (it cannot require itself). */
  selfId?: string;
  submitLabel: string;
  busy: boolean;
  onSubmit: (body: ChallengeFormBody) => void;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState<ChallengeFormValues>(initial);
  const [error, setError] = useState('');
  const uploads = useUploads();
  const challenges = useAdminChallenges();
  const others = (challenges.data ?? []).filter((c) => c._id !== selfId);
  const id = useId();
  const set = <K extends keyof ChallengeFormValues>(key: K, value: ChallengeFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  // A file attached earlier but since deleted stays listed, so saving shows the server's refusal.
  const fileChoices = [
    ...new Set([...(uploads.data ?? []), ...initial.files, ...initial.solution.files]),
  ].sort();

  function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const checked = checkChallengeForm(values);
    if ('problem' in checked) {
      setError(checked.problem);
      return;
    }
    setError('');
    onSubmit(checked.body);
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
        <ChoiceField
          controlId={`${id}-category`}
          label="Category"
          placeholder="Select a category"
          choices={CATEGORIES}
          value={values.category}
          onChange={(c) => set('category', c)}
        />
        <ChoiceField
          controlId={`${id}-difficulty`}
          label="Difficulty"
          placeholder="Select a difficulty"
          choices={DIFFICULTIES}
          value={values.difficulty}
          onChange={(d) => set('difficulty', d)}
        />
        <Form.Group as={Col} md={4} controlId={`${id}-points`}>
          <Form.Label>Points</Form.Label>
          <Form.Control
            readOnly
            value={values.difficulty ? String(pointsFor(values.difficulty)) : ''}
            placeholder="From difficulty"
            aria-describedby={`${id}-points-help`}
          />
          <Form.Text id={`${id}-points-help`}>
            {values.scoring.type === 'dynamic' ? 'Dynamic: see the scoring below.' : 'Set by the difficulty.'}
          </Form.Text>
        </Form.Group>
        <Col xs={12}>
          <ScoringFields id={id} value={values.scoring} onChange={(scoring) => set('scoring', scoring)} />
        </Col>
        <Col xs={12}>
          <FlagListEditor id={id} flags={values.flags} onChange={(flags) => set('flags', flags)} />
        </Col>
        <Col xs={12}>
          <Form.Check
            id={`${id}-per-team`}
            type="checkbox"
            label="Per-team flags: each team (or player without one) gets its own flag derived from this one"
            checked={values.per_team}
            onChange={(e) => set('per_team', e.target.checked)}
            aria-describedby={`${id}-per-team-help`}
          />
          <Form.Text id={`${id}-per-team-help`}>
            One exact flag, the base: a competitor must send it with _ and 16 hex digits before the closing
            brace (flag&#123;base&#125; becomes flag&#123;base_3f9a…&#125;). View Challenges shows a
            competitor&apos;s flag.
          </Form.Text>
          {values.per_team && (
            <Form.Check
              id={`${id}-per-team-on-page`}
              type="checkbox"
              className="mt-2"
              label="Show each competitor its own flag on the challenge page (for challenges built to read it)"
              checked={values.per_team_on_page}
              onChange={(e) => set('per_team_on_page', e.target.checked)}
            />
          )}
        </Col>
        <Col xs={12}>
          <InstanceFields
            id={id}
            value={values.instance}
            onChange={(instance) => set('instance', instance)}
          />
        </Col>
        <WholeNumberField
          controlId={`${id}-max-attempts`}
          label="Attempt limit per user"
          min={1}
          max={MAX_ATTEMPTS_LIMIT}
          value={values.max_attempts}
          onChange={(v) => set('max_attempts', v)}
          placeholder="No limit"
          help="Wrong answers allowed; empty for no limit."
        />
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
        <Form.Group as={Col} md={6} controlId={`${id}-release`}>
          <Form.Label>Release time</Form.Label>
          <Form.Control
            type="datetime-local"
            value={values.release_at}
            onChange={(e) => set('release_at', e.target.value)}
            aria-describedby={`${id}-release-help`}
          />
          <Form.Text id={`${id}-release-help`}>
            Your local time. Before it, players cannot see the challenge; empty: visible now.
          </Form.Text>
        </Form.Group>
        <Col md={6}>
          <fieldset>
            <legend className="form-label fs-6">Prerequisites (solve first)</legend>
            {others.length === 0 && <p className="text-body-secondary small">No other challenges.</p>}
            <div>
              {others.map((c) => (
                <Form.Check
                  key={c._id}
                  id={`${id}-requires-${c._id}`}
                  type="checkbox"
                  label={`Requires ${c.name}`}
                  checked={values.prerequisites.includes(c._id)}
                  onChange={(e) =>
                    set(
                      'prerequisites',
                      e.target.checked
                        ? [...values.prerequisites, c._id]
                        : values.prerequisites.filter((p) => p !== c._id),
                    )
                  }
                />
              ))}
            </div>
          </fieldset>
        </Col>
        <Col xs={12}>
          <HintListEditor id={id} hints={values.hints} onChange={(hints) => set('hints', hints)} />
        </Col>
        <Col xs={12}>
          <SolutionFields
            id={id}
            value={values.solution}
            fileChoices={fileChoices}
            onChange={(solution) => set('solution', solution)}
          />
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
