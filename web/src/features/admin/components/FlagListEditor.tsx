import { FLAG_PATTERN_MAX_LENGTH, FLAG_TYPES, FLAGS_PER_CHALLENGE_MAX, type FlagType } from '@ctf/contract';
import { Button, Col, Form, Row } from 'react-bootstrap';
import { ListEditor } from './ListEditor';

export interface FlagValue {
  type: FlagType;
  content: string;
}

const TYPE_LABELS: Record<FlagType, string> = {
  static: 'Exact (case-sensitive)',
  case_insensitive: 'Exact, any case',
  regex: 'Regular expression (whole answer)',
};

/**
 * The challenge's accepted flags, edited as a list. A submission is correct when it matches any of
 * them; a regular expression is checked by the server when saved (RE2 syntax, whole answer).
 * The first flag's field keeps docs/product.md's label 'Flag'.
 */
export function FlagListEditor({
  id,
  flags,
  onChange,
}: {
  id: string;
  flags: FlagValue[];
  onChange: (flags: FlagValue[]) => void;
}) {
  return (
    <ListEditor
      legend="Flags"
      help="A submission is correct when it matches any of these (surrounding spaces are ignored)."
      items={flags}
      onChange={onChange}
      rowKey={(_, i) => i}
      max={FLAGS_PER_CHALLENGE_MAX}
      addLabel="Add another accepted flag"
      blank={(): FlagValue => ({ type: 'static', content: '' })}
    >
      {({ item: f, index: i, count, update, remove }) => (
        <Row className="g-2 mb-2 align-items-end" data-testid="flag-row">
          <Form.Group as={Col} md={4} controlId={`${id}-flag-type-${i}`}>
            <Form.Label className="small mb-0">{i === 0 ? 'Comparison' : `Comparison ${i + 1}`}</Form.Label>
            <Form.Select value={f.type} onChange={(e) => update({ type: e.target.value as FlagType })}>
              {FLAG_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABELS[t]}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <Form.Group as={Col} md={count > 1 ? 6 : 8} controlId={`${id}-flag-${i}`}>
            <Form.Label className="small mb-0">{i === 0 ? 'Flag' : `Flag ${i + 1}`}</Form.Label>
            <Form.Control
              value={f.content}
              onChange={(e) => update({ content: e.target.value })}
              required
              maxLength={FLAG_PATTERN_MAX_LENGTH}
              autoComplete="off"
              spellCheck={false}
              className={f.type === 'regex' ? 'font-monospace' : undefined}
            />
          </Form.Group>
          {count > 1 && (
            <Col md={2}>
              <Button
                variant="outline-danger"
                className="w-100"
                aria-label={`Remove flag ${i + 1}`}
                onClick={remove}
              >
                Remove
              </Button>
            </Col>
          )}
        </Row>
      )}
    </ListEditor>
  );
}
