import {
  CATEGORIES,
  CHALLENGE_AUTHOR_MAX_LENGTH,
  CHALLENGE_DESCRIPTION_MAX_LENGTH,
  CHALLENGE_NAME_MAX_LENGTH,
  DIFFICULTIES,
  DYNAMIC_DECAY_MAX,
  DYNAMIC_VALUE_MAX,
  MAX_ATTEMPTS_LIMIT,
  dynamicScoringProblem,
  pointsFor,
  type ChallengeScoringInput,
  type ScoringFunction,
  type Category,
  type Difficulty,
} from '@ctf/contract';
import { useId, useState, type FormEvent } from 'react';
import { Button, Col, Form, Row } from 'react-bootstrap';
import {
  localInputToIso,
  useAdminChallenges,
  type ChallengeForm as ChallengeFormBody,
} from '../api/challenges';
import { QueryError } from '../../../components/QueryError';
import { useUploads } from '../api/files';
import { FlagListEditor, type FlagValue } from './FlagListEditor';
import { HintListEditor, type HintValue } from './HintListEditor';
import { ValueOptions } from '../../../components/ValueOptions';

/** The fields while editing: selects may still be empty. */
export interface ChallengeFormValues {
  name: string;
  written_by: string;
  category: Category | '';
  difficulty: Difficulty | '';
  flags: FlagValue[];
  /** Per-team flags: the one exact flag is the base of each competitor's own (issue 18). */
  per_team: boolean;
  /** The challenge page offers each competitor its own per-team flag. */
  per_team_on_page: boolean;
  /** Empty: no limit. */
  max_attempts: string;
  description: string;
  files: string[];
  hints: HintValue[];
  /** datetime-local value in the browser's time zone; empty: released. */
  release_at: string;
  /** `_id`s of the challenges to solve first. */
  prerequisites: string[];
  /** Static (points from difficulty) or dynamic with CTFd's parameters, as typed. */
  scoring: ScoringValues;
}

export interface ScoringValues {
  type: 'static' | 'dynamic';
  function: ScoringFunction;
  initial: string;
  minimum: string;
  decay: string;
}

const DEFAULT_SCORING: ScoringValues = {
  type: 'static',
  function: 'linear',
  initial: '500',
  minimum: '100',
  decay: '10',
};

/** A stored scoring as the form's fields (a static one keeps the defaults for a switch to dynamic). */
export function scoringValues(s: ChallengeScoringInput): ScoringValues {
  if (s.type === 'static') return DEFAULT_SCORING;
  return {
    type: 'dynamic',
    function: s.function,
    initial: String(s.initial),
    minimum: String(s.minimum),
    decay: String(s.decay),
  };
}

function scoringBody(v: ScoringValues): ChallengeScoringInput {
  if (v.type === 'static') return { type: 'static' };
  return {
    type: 'dynamic',
    function: v.function,
    initial: Number(v.initial),
    minimum: Number(v.minimum),
    decay: Number(v.decay),
  };
}

/** Why the dynamic fields cannot be saved, or '' (the server checks the same rule). */
function scoringProblem(v: ScoringValues): string {
  if (v.type === 'static') return '';
  const whole = (x: string) => /^[0-9]+$/.test(x.trim());
  if (![v.initial, v.minimum, v.decay].every(whole))
    return 'Dynamic scoring needs whole numbers for the initial value, the minimum and the decay.';
  const problem = dynamicScoringProblem({
    initial: Number(v.initial),
    minimum: Number(v.minimum),
    decay: Number(v.decay),
  });
  return problem ? `Dynamic scoring: the ${problem.field} ${problem.message}.` : '';
}

export const EMPTY_CHALLENGE: ChallengeFormValues = {
  name: '',
  written_by: '',
  category: '',
  difficulty: '',
  flags: [{ type: 'static', content: '' }],
  per_team: false,
  per_team_on_page: false,
  max_attempts: '',
  description: '',
  files: [],
  hints: [],
  release_at: '',
  prerequisites: [],
  scoring: DEFAULT_SCORING,
};

const REQUIRED_TEXT = 'Name, author, category, difficulty and flag are required.';
const HINT_TEXT = 'Every hint needs a title and a whole cost of 0 or more.';
const PER_TEAM_TEXT = 'Per-team flags take exactly one exact (case-sensitive) flag: the base.';
const ATTEMPTS_TEXT = `The attempt limit must be a whole number from 1 to ${MAX_ATTEMPTS_LIMIT}, or empty.`;

/** The body the form sends: the flag list, the limit (null: none) and the hints in order. */
function toBody(values: ChallengeFormValues, category: Category, difficulty: Difficulty): ChallengeFormBody {
  return {
    name: values.name,
    written_by: values.written_by,
    category,
    difficulty,
    description: values.description,
    files: values.files,
    points: pointsFor(difficulty),
    flags: values.flags.filter((f) => f.content.trim() !== ''),
    per_team: values.per_team,
    per_team_on_page: values.per_team && values.per_team_on_page,
    max_attempts: values.max_attempts.trim() === '' ? null : Number(values.max_attempts),
    release_at: localInputToIso(values.release_at),
    prerequisites: values.prerequisites,
    scoring: scoringBody(values.scoring),
    hints: values.hints.map((h) => ({
      ...(h._id && { _id: h._id }),
      title: h.title,
      content: h.content,
      cost: Number(h.cost),
    })),
  };
}

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
  const fileChoices = [...new Set([...(uploads.data ?? []), ...initial.files])].sort();

  function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const { category, difficulty } = values;
    const hasFlag = values.flags.some((f) => f.content.trim() !== '');
    if (!values.name.trim() || !values.written_by.trim() || !hasFlag || !category || !difficulty) {
      setError(REQUIRED_TEXT);
      return;
    }
    const filled = values.flags.filter((f) => f.content.trim() !== '');
    if (values.per_team && (filled.length !== 1 || filled[0]!.type !== 'static')) {
      setError(PER_TEAM_TEXT);
      return;
    }
    const limit = values.max_attempts.trim();
    if (
      limit !== '' &&
      !(/^[0-9]+$/.test(limit) && Number(limit) >= 1 && Number(limit) <= MAX_ATTEMPTS_LIMIT)
    ) {
      setError(ATTEMPTS_TEXT);
      return;
    }
    if (values.hints.some((h) => !h.title.trim() || !/^[0-9]+$/.test(h.cost.trim()))) {
      setError(HINT_TEXT);
      return;
    }
    const scoring = scoringProblem(values.scoring);
    if (scoring) {
      setError(scoring);
      return;
    }
    setError('');
    onSubmit(toBody(values, category, difficulty));
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

/** A required select of fixed choices that starts on a disabled placeholder. */
function ChoiceField<C extends string>({
  controlId,
  label,
  placeholder,
  choices,
  value,
  onChange,
}: {
  controlId: string;
  label: string;
  placeholder: string;
  choices: readonly C[];
  value: C | '';
  onChange: (value: C) => void;
}) {
  return (
    <Form.Group as={Col} md={4} controlId={controlId}>
      <Form.Label>{label}</Form.Label>
      <Form.Select value={value} onChange={(e) => onChange(e.target.value as C)} required>
        <option value="" disabled>
          {placeholder}
        </option>
        <ValueOptions values={choices} />
      </Form.Select>
    </Form.Group>
  );
}

/** The scoring fields: static, or dynamic with its function, initial value, minimum and decay. */
function ScoringFields({
  id,
  value,
  onChange,
}: {
  id: string;
  value: ScoringValues;
  onChange: (value: ScoringValues) => void;
}) {
  const set = <K extends keyof ScoringValues>(key: K, v: ScoringValues[K]) =>
    onChange({ ...value, [key]: v });
  return (
    <fieldset className="border rounded p-2">
      <legend className="fs-6 w-auto px-1 mb-1">Scoring</legend>
      <Row className="g-2">
        <Form.Group as={Col} md={4} controlId={`${id}-scoring-type`}>
          <Form.Label>Type</Form.Label>
          <Form.Select
            value={value.type}
            onChange={(e) => set('type', e.target.value as ScoringValues['type'])}
          >
            <option value="static">Static (points from difficulty)</option>
            <option value="dynamic">Dynamic (falls as it is solved)</option>
          </Form.Select>
        </Form.Group>
        {value.type === 'dynamic' && (
          <>
            <Form.Group as={Col} md={4} controlId={`${id}-scoring-function`}>
              <Form.Label>Function</Form.Label>
              <Form.Select
                value={value.function}
                onChange={(e) => set('function', e.target.value as ScoringFunction)}
              >
                <option value="linear">Linear</option>
                <option value="logarithmic">Logarithmic</option>
              </Form.Select>
            </Form.Group>
            <WholeNumberField
              controlId={`${id}-scoring-initial`}
              label="Initial value"
              min={1}
              max={DYNAMIC_VALUE_MAX}
              value={value.initial}
              onChange={(v) => set('initial', v)}
            />
            <WholeNumberField
              controlId={`${id}-scoring-minimum`}
              label="Minimum"
              min={1}
              max={DYNAMIC_VALUE_MAX}
              value={value.minimum}
              onChange={(v) => set('minimum', v)}
            />
            <WholeNumberField
              controlId={`${id}-scoring-decay`}
              label="Decay"
              min={0}
              max={DYNAMIC_DECAY_MAX}
              value={value.decay}
              onChange={(v) => set('decay', v)}
              help={
                value.function === 'linear'
                  ? 'Points lost with each solve after the first.'
                  : 'The solve count at which the value reaches the minimum.'
              }
            />
          </>
        )}
      </Row>
    </fieldset>
  );
}

/** A number box for a whole number from min to max, as typed, with an optional help line. */
function WholeNumberField({
  controlId,
  label,
  min,
  max,
  value,
  onChange,
  placeholder,
  help,
}: {
  controlId: string;
  label: string;
  min: number;
  max: number;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  help?: string;
}) {
  return (
    <Form.Group as={Col} md={4} controlId={controlId}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type="number"
        min={min}
        max={max}
        step={1}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        aria-describedby={help ? `${controlId}-help` : undefined}
      />
      {help && <Form.Text id={`${controlId}-help`}>{help}</Form.Text>}
    </Form.Group>
  );
}
