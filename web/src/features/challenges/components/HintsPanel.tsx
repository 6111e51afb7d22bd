import { type ChallengeHint, counted } from '@ctf/contract';
import { useState } from 'react';
import { Alert, Button, Card } from 'react-bootstrap';
import { sanitizeHtml } from '../../../lib/sanitize';
import { confirmUnlockText, unlockHint } from '../api/unlock-hint';

/**
 * The challenge's hints in order: a locked one shows its title and cost and unlocks after a
 * confirmation stating the cost; an unlocked one shows its content, sanitised again here.
 */
export function HintsPanel({ hints, onUnlocked }: { hints: ChallengeHint[]; onUnlocked: () => void }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [opened, setOpened] = useState<Record<string, string>>({});

  if (hints.length === 0) return null;

  async function unlock(h: ChallengeHint) {
    if (busy) return;
    if (!window.confirm(confirmUnlockText(h.title, h.cost))) return;
    setBusy(h._id);
    setError('');
    const outcome = await unlockHint(h._id);
    setBusy(null);
    if (outcome.ok) {
      setOpened((o) => ({ ...o, [h._id]: outcome.content }));
      onUnlocked();
    } else setError(outcome.message);
  }

  return (
    <section aria-labelledby="hints-heading" className="my-4">
      <h2 id="hints-heading" className="h4">
        Hints
      </h2>
      {hints.map((h, i) => {
        const content = h.content ?? opened[h._id];
        return (
          <Card key={h._id} className="mb-2" data-testid="hint">
            <Card.Body>
              <Card.Title as="h3" className="h6">
                Hint {i + 1}: {h.title}{' '}
                <span className="text-body-secondary fw-normal">
                  ({h.cost === 0 ? 'free' : counted(h.cost, 'point')})
                </span>
              </Card.Title>
              {content !== undefined ? (
                <div
                  className="text-break"
                  data-testid="hint-content"
                  dangerouslySetInnerHTML={{ __html: sanitizeHtml(content) }}
                />
              ) : (
                <Button
                  size="sm"
                  variant="outline-primary"
                  aria-disabled={busy !== null}
                  onClick={() => void unlock(h)}
                >
                  Unlock hint {i + 1}
                </Button>
              )}
            </Card.Body>
          </Card>
        );
      })}
      <div aria-live="polite">{error && <Alert variant="danger">{error}</Alert>}</div>
    </section>
  );
}
