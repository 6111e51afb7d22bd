import { useState, type FormEvent } from 'react';
import { Alert, Button, Form, InputGroup } from 'react-bootstrap';
import { submitFlag, type FlagOutcome } from '../api/submit-flag';

interface Props {
  challengeId: string;
  onSolved: () => void;
  /** Wrong attempts left under the challenge's limit; null when it has none. */
  attemptsLeft?: number | null;
  /** After any answer (the attempts left change). */
  onAnswered?: () => void;
}

/** The flag form: the flag is required; the answer shows in an info or danger alert (docs/product.md §8). */
export function FlagForm({ challengeId, onSolved, attemptsLeft = null, onAnswered }: Props) {
  const [flag, setFlag] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<FlagOutcome | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (flag === '' || busy) return;
    setBusy(true);
    setOutcome(null);
    const result = await submitFlag(challengeId, flag);
    setBusy(false);
    setOutcome(result);
    if (result.solved) {
      setFlag('');
      onSolved();
    } else onAnswered?.();
  }

  return (
    <section aria-labelledby="flag-heading" className="my-4">
      <h2 id="flag-heading" className="h4">
        Submit a flag
      </h2>
      <Form onSubmit={(e) => void submit(e)}>
        <Form.Label htmlFor="flag-input">Flag</Form.Label>
        <InputGroup>
          <Form.Control
            id="flag-input"
            name="flag"
            required
            autoComplete="off"
            spellCheck={false}
            value={flag}
            onChange={(e) => setFlag(e.target.value)}
          />
          <Button type="submit" aria-disabled={busy}>
            Submit Flag
          </Button>
        </InputGroup>
      </Form>
      {attemptsLeft !== null && (
        <p className="mt-2 mb-0" data-testid="attempts-left">
          Attempts left: <strong>{attemptsLeft}</strong>
        </p>
      )}
      <div aria-live="polite" className="mt-3" data-testid="flag-message">
        {outcome && <Alert variant={outcome.variant}>{outcome.text}</Alert>}
      </div>
    </section>
  );
}
