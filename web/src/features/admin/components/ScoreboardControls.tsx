import { useId, useState, type FormEvent } from 'react';
import { Button, Form, InputGroup } from 'react-bootstrap';
import { isoToLocalInput, localInputToIso } from '../api/challenges';
import { ValueOptions } from '../../../components/ValueOptions';
import { useFreezeAt, useSiteInfo } from '../../../lib/site-info';
import { ARCHIVE_LINK, EXPORT_LINKS, setFreeze } from '../api/scoreboard';
import type { AdminAct } from '../use-admin-action';
import { useMayCall } from '../staff-role';
import { adminApi } from '@ctf/contract';

/**
 * The scoreboard freeze (set a time, or lift it: lifting reveals everything at once) and the
 * exports (downloads of the live board and of every solve), of everyone or, while the site has
 * divisions, of one division (`?division=`); and the event's static archive (issue 32).
 */
export function ScoreboardControls({ act }: { act: AdminAct }) {
  const freezeAt = useFreezeAt().data ?? null;
  const divisions = useSiteInfo().data?.divisions ?? [];
  const [chosen, setChosen] = useState('');
  const division = divisions.includes(chosen) ? chosen : '';
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const id = useId();
  // A monitor downloads the exports; setting or lifting the freeze is an admin's.
  const may = useMayCall();
  const mayFreeze = may(adminApi.freezeScoreboard);

  async function run(next: string | null) {
    if (busy) return;
    setBusy(true);
    try {
      await act(() => setFreeze(next));
    } finally {
      setBusy(false);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const at = localInputToIso(value || isoToLocalInput(freezeAt));
    if (at) void run(at);
  }

  return (
    <section aria-labelledby={`${id}-title`} className="border rounded p-3 my-3">
      <h2 id={`${id}-title`} className="h5">
        Scoreboard
      </h2>
      <p className="mb-2" data-testid="freeze-status">
        {freezeAt === null ? (
          'No freeze is set: everyone sees the live board.'
        ) : (
          <>
            {Date.parse(freezeAt) <= Date.now() ? 'Frozen at ' : 'Freezes at '}
            <time dateTime={freezeAt}>{new Date(freezeAt).toLocaleString()}</time>: from then on the public
            sees the board as it was; admins see it live.
          </>
        )}
      </p>
      {mayFreeze && (
        <Form onSubmit={submit} className="d-flex flex-wrap gap-2 align-items-end">
          <Form.Group controlId={`${id}-freeze`}>
            <Form.Label>Freeze time</Form.Label>
            <InputGroup>
              <Form.Control
                type="datetime-local"
                value={value || isoToLocalInput(freezeAt)}
                onChange={(e) => setValue(e.target.value)}
              />
              <Button type="submit" variant="outline-primary" aria-disabled={busy}>
                Set freeze
              </Button>
            </InputGroup>
          </Form.Group>
          <Button
            variant="outline-danger"
            aria-disabled={busy}
            disabled={freezeAt === null}
            onClick={() => {
              setValue('');
              void run(null);
            }}
          >
            Lift freeze
          </Button>
        </Form>
      )}
      <div className="mt-3 d-flex flex-wrap gap-2 align-items-center">
        {divisions.length > 0 && (
          <Form.Group controlId={`${id}-division`} className="d-flex gap-2 align-items-center">
            <Form.Label className="mb-0">Exports of</Form.Label>
            <Form.Select size="sm" value={division} onChange={(e) => setChosen(e.target.value)}>
              <option value="">Every division</option>
              <ValueOptions values={divisions} />
            </Form.Select>
          </Form.Group>
        )}
        <p className="mb-0">
          Exports:{' '}
          {EXPORT_LINKS.map((l, i) => (
            <span key={l.href}>
              {i > 0 && ' · '}
              <a href={division ? `${l.href}?division=${encodeURIComponent(division)}` : l.href} download>
                {l.label}
              </a>
            </span>
          ))}
        </p>
      </div>
      {may(adminApi.eventArchive) && (
        <p className="mt-2 mb-0">
          After the event:{' '}
          <a href={ARCHIVE_LINK.href} download>
            {ARCHIVE_LINK.label}
          </a>{' '}
          (a static site of the scoreboard, challenges and announcements, to put on any static host)
        </p>
      )}
    </section>
  );
}
