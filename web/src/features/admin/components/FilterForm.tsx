import { useState, type ReactNode } from 'react';
import { Button, Col, Form, Row } from 'react-bootstrap';

/** One field of a tab's filter form: a text box, or a select when options are given. */
export interface FilterField {
  name: string;
  label: string;
  options?: readonly { value: string; label: string }[];
  type?: 'text' | 'datetime-local';
}

/**
 * The filter form above a server-paged admin list: the fields are edited freely and applied
 * together on Filter (one request, not one per keystroke); Clear empties them.
 */
export function FilterForm({
  label,
  fields,
  onApply,
  extra,
}: {
  label: string;
  fields: readonly FilterField[];
  onApply: (values: Record<string, string>) => void;
  extra?: ReactNode;
}) {
  const empty = Object.fromEntries(fields.map((f) => [f.name, '']));
  const [values, setValues] = useState<Record<string, string>>(empty);
  return (
    <Form
      aria-label={label}
      className="mb-3"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(values);
      }}
    >
      <Row className="g-2 align-items-end">
        {fields.map((f) => (
          <Col xs={12} sm={6} md="auto" key={f.name}>
            <Form.Group controlId={`${label}-${f.name}`}>
              <Form.Label className="small mb-0">{f.label}</Form.Label>
              {f.options ? (
                <Form.Select
                  size="sm"
                  value={values[f.name] ?? ''}
                  onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
                >
                  <option value="">Any</option>
                  {f.options.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </Form.Select>
              ) : (
                <Form.Control
                  size="sm"
                  type={f.type ?? 'text'}
                  value={values[f.name] ?? ''}
                  onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
                />
              )}
            </Form.Group>
          </Col>
        ))}
        <Col xs="auto">
          <Button size="sm" type="submit">
            Filter
          </Button>{' '}
          <Button
            size="sm"
            variant="outline-secondary"
            onClick={() => {
              setValues(empty);
              onApply(empty);
            }}
          >
            Clear
          </Button>
          {extra}
        </Col>
      </Row>
    </Form>
  );
}
