import { Col, Form, Row } from 'react-bootstrap';
import { DYNAMIC_DECAY_MAX, DYNAMIC_VALUE_MAX, type ScoringFunction } from '@ctf/contract';
import { ValueOptions } from '../../../components/ValueOptions';
import type { ScoringValues } from '../challenge-form-values';

// The challenge form's field widgets beyond plain text boxes.

export /** A required select of fixed choices that starts on a disabled placeholder. */
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
export /** The scoring fields: static, or dynamic with its function, initial value, minimum and decay. */
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
export /** A number box for a whole number from min to max, as typed, with an optional help line. */
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
