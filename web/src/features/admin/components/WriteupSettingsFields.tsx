import { WRITEUP_NOTE_MAX_LENGTH, type WriteupSettings } from '@ctf/contract';
import { Form } from 'react-bootstrap';
import { fromLocalInput, toLocalInput } from '../api/settings';

/**
 * Writeup collection in the Settings tab's Writeups section: open or closed, an optional deadline in the
 * admin's own time zone (saved in UTC), and the note players read beside the form.
 */
export function WriteupSettingsFields({
  value,
  onChange,
  zone,
}: {
  value: WriteupSettings;
  onChange: (next: WriteupSettings) => void;
  zone: string;
}) {
  return (
    <>
      <Form.Check
        id="settings-writeups-open"
        className="mb-2"
        label="Collect writeups: players hand in one per challenge they solved"
        checked={value.open}
        onChange={(e) => onChange({ ...value, open: e.target.checked })}
      />
      <Form.Group className="mb-3" controlId="settings-writeups-deadline">
        <Form.Label>Writeup deadline ({zone}; empty: none)</Form.Label>
        <Form.Control
          type="datetime-local"
          value={value.deadline ? toLocalInput(value.deadline) : ''}
          onChange={(e) => onChange({ ...value, deadline: fromLocalInput(e.target.value) })}
        />
      </Form.Group>
      <Form.Group className="mb-3" controlId="settings-writeups-note">
        <Form.Label>Writeup note to players</Form.Label>
        <Form.Control
          as="textarea"
          rows={3}
          value={value.note}
          maxLength={WRITEUP_NOTE_MAX_LENGTH}
          onChange={(e) => onChange({ ...value, note: e.target.value })}
        />
        <Form.Text>Shown beside the writeup form on each challenge page, as plain text.</Form.Text>
      </Form.Group>
    </>
  );
}
