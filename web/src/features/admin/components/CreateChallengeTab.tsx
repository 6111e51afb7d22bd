import { MESSAGES } from '@ctf/contract';
import { useState } from 'react';
import { createChallenge, type ChallengeForm as Body } from '../api/challenges';
import { isDuringEvent, useEventWindow } from '../api/site';
import type { AdminAct } from '../use-admin-action';
import { EMPTY_CHALLENGE } from '../challenge-form-values';
import { ChallengeForm } from './ChallengeForm';

/**
 * Create Challenge: the same form. While the event runs (GET /api/info/site's window) its submit
 * only alerts that creation is disabled (docs/product.md §4, §5); the server refuses it then as well.
 */
export function CreateChallengeTab({ act }: { act: AdminAct }) {
  const eventWindow = useEventWindow();
  const [busy, setBusy] = useState(false);
  const [formKey, setFormKey] = useState(0);

  async function create(body: Body) {
    if (eventWindow.data && isDuringEvent(eventWindow.data, Date.now())) {
      window.alert(MESSAGES.createDisabled);
      return;
    }
    setBusy(true);
    try {
      const outcome = await act(() => createChallenge(body));
      // A fresh, empty form for the next challenge.
      if (outcome.success) setFormKey((k) => k + 1);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-label="Create Challenge">
      <ChallengeForm
        key={formKey}
        initial={EMPTY_CHALLENGE}
        submitLabel="Create Challenge"
        busy={busy}
        onSubmit={(body) => void create(body)}
      />
    </section>
  );
}
