import {
  HINT_CONTENT_MAX_LENGTH,
  HINT_COST_MAX,
  HINT_TITLE_MAX_LENGTH,
  HINTS_PER_CHALLENGE_MAX,
} from '@ctf/contract';
import { Button, Card, Col, Form, Row } from 'react-bootstrap';
import { ListEditor } from './ListEditor';

/** A hint while editing; `_id` keeps an existing hint (and who unlocked it) when saving. */
export interface HintValue {
  _id?: string;
  title: string;
  content: string;
  cost: string;
  unlocked_by?: string[];
}

/** Ordered hints: title, Markdown content and cost in points (0 = free). */
export function HintListEditor({
  id,
  hints,
  onChange,
}: {
  id: string;
  hints: HintValue[];
  onChange: (hints: HintValue[]) => void;
}) {
  return (
    <ListEditor
      legend="Hints"
      help="Shown in this order. Players unlock a hint after confirming its cost; the cost is taken from their team's score (0 = free). Content is Markdown."
      items={hints}
      onChange={onChange}
      rowKey={(h, i) => h._id ?? `new-${i}`}
      max={HINTS_PER_CHALLENGE_MAX}
      addLabel="Add hint"
      blank={(): HintValue => ({ title: '', content: '', cost: '0' })}
    >
      {({ item: h, index: i, count, update, remove, move }) => (
        <Card className="mb-2" data-testid="hint-row">
          <Card.Body className="p-2">
            <Row className="g-2">
              <Form.Group as={Col} md={8} controlId={`${id}-hint-title-${i}`}>
                <Form.Label className="small mb-0">Hint {i + 1} title</Form.Label>
                <Form.Control
                  value={h.title}
                  onChange={(e) => update({ title: e.target.value })}
                  required
                  maxLength={HINT_TITLE_MAX_LENGTH}
                />
              </Form.Group>
              <Form.Group as={Col} md={4} controlId={`${id}-hint-cost-${i}`}>
                <Form.Label className="small mb-0">Hint {i + 1} cost</Form.Label>
                <Form.Control
                  type="number"
                  min={0}
                  max={HINT_COST_MAX}
                  step={1}
                  value={h.cost}
                  onChange={(e) => update({ cost: e.target.value })}
                  required
                />
              </Form.Group>
              <Form.Group as={Col} xs={12} controlId={`${id}-hint-content-${i}`}>
                <Form.Label className="small mb-0">Hint {i + 1} content</Form.Label>
                <Form.Control
                  as="textarea"
                  rows={3}
                  value={h.content}
                  onChange={(e) => update({ content: e.target.value })}
                  maxLength={HINT_CONTENT_MAX_LENGTH}
                />
              </Form.Group>
            </Row>
            <div className="d-flex gap-2 mt-2 align-items-center">
              <Button size="sm" variant="outline-secondary" disabled={i === 0} onClick={() => move(i - 1)}>
                Move up
              </Button>
              <Button
                size="sm"
                variant="outline-secondary"
                disabled={i === count - 1}
                onClick={() => move(i + 1)}
              >
                Move down
              </Button>
              <Button size="sm" variant="outline-danger" aria-label={`Remove hint ${i + 1}`} onClick={remove}>
                Remove
              </Button>
              {h.unlocked_by && (
                <span className="small text-body-secondary">
                  {h.unlocked_by.length === 0
                    ? 'Not unlocked yet'
                    : `Unlocked by ${h.unlocked_by.join(', ')}`}
                </span>
              )}
            </div>
          </Card.Body>
        </Card>
      )}
    </ListEditor>
  );
}
