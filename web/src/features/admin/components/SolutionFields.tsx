import { SOLUTION_CONTENT_MAX_LENGTH, SOLUTION_VISIBILITIES, type SolutionVisibility } from '@ctf/contract';
import { Form } from 'react-bootstrap';
import type { SolutionValues } from '../challenge-form-values';

const VISIBILITY_LABELS: Record<SolutionVisibility, string> = {
  hidden: "Hidden: only admins and the challenge's owners see it",
  solved: 'After solving: a player sees it once their team (or they) solved this challenge',
  after_end: 'After the event: everyone sees it once the event has ended',
};

/**
 * The challenge form's Solution section (issue 32): the official solution in Markdown, who may
 * see it, and stored files (from the Upload tab) that players may download when they see it.
 */
export function SolutionFields({
  id,
  value,
  fileChoices,
  onChange,
}: {
  id: string;
  value: SolutionValues;
  fileChoices: readonly string[];
  onChange: (next: SolutionValues) => void;
}) {
  return (
    <fieldset className="border rounded p-2">
      <legend className="fs-6 w-auto px-1 mb-1">Solution</legend>
      <Form.Group className="mb-2" controlId={`${id}-solution-content`}>
        <Form.Label>Official solution (Markdown; empty: none)</Form.Label>
        <Form.Control
          as="textarea"
          rows={6}
          className="font-monospace"
          value={value.content}
          maxLength={SOLUTION_CONTENT_MAX_LENGTH}
          onChange={(e) => onChange({ ...value, content: e.target.value })}
        />
      </Form.Group>
      <Form.Group className="mb-2" controlId={`${id}-solution-visibility`}>
        <Form.Label>Who sees the solution</Form.Label>
        <Form.Select
          value={value.visibility}
          aria-describedby={`${id}-solution-visibility-note`}
          onChange={(e) => onChange({ ...value, visibility: e.target.value as SolutionVisibility })}
        >
          {SOLUTION_VISIBILITIES.map((v) => (
            <option key={v} value={v}>
              {VISIBILITY_LABELS[v]}
            </option>
          ))}
        </Form.Select>
        <Form.Text id={`${id}-solution-visibility-note`}>
          Only an &ldquo;After the event&rdquo; solution goes into the public archive of the event.
        </Form.Text>
      </Form.Group>
      {fileChoices.length > 0 && (
        <fieldset>
          <legend className="form-label fs-6">Solution files (shown with the solution)</legend>
          {fileChoices.map((name, index) => (
            <Form.Check
              key={name}
              id={`${id}-solution-file-${index}`}
              type="checkbox"
              label={`${name} (solution)`}
              checked={value.files.includes(name)}
              onChange={(e) =>
                onChange({
                  ...value,
                  files: e.target.checked ? [...value.files, name] : value.files.filter((f) => f !== name),
                })
              }
            />
          ))}
        </fieldset>
      )}
    </fieldset>
  );
}
