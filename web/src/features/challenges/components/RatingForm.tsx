import { RATING_LABELS, RATING_MAX, RATING_MIN, UI_TEXT } from '@ctf/contract';
import { useState, type FormEvent } from 'react';
import { Button, Form } from 'react-bootstrap';
import { rateFromChallengePage, type RatingOutcome } from '../api/rate-challenge';

interface Props {
  challengeId: string;
  onMessage: (outcome: RatingOutcome) => void;
}

const VALUES = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i);

/** The challenge page's rating prompt: one of 1..5 must be chosen; it is sent as an integer. */
export function RatingForm({ challengeId, onMessage }: Props) {
  const [rating, setRating] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    if (rating === null) {
      onMessage({ ok: false, text: UI_TEXT.selectRating });
      return;
    }
    setBusy(true);
    const outcome = await rateFromChallengePage(challengeId, rating);
    setBusy(false);
    onMessage(outcome);
  }

  return (
    <Form onSubmit={(e) => void submit(e)} noValidate>
      <fieldset>
        <legend className="h5">How would you rate this challenge?</legend>
        <div className="d-flex flex-wrap gap-3 mb-3">
          {VALUES.map((v) => (
            <Form.Check
              key={v}
              type="radio"
              id={`rating-${v}`}
              name="rating"
              label={`${v} ${RATING_LABELS[v]}`}
              checked={rating === v}
              onChange={() => setRating(v)}
            />
          ))}
        </div>
      </fieldset>
      <Button type="submit" variant="success" aria-disabled={busy}>
        Submit Rating
      </Button>
    </Form>
  );
}
