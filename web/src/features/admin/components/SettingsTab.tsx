import type { AdminSettings } from '@ctf/contract';
import { useState, type FormEvent } from 'react';
import { Button, Form, Nav } from 'react-bootstrap';
import { useSearchParams } from 'react-router';
import { PageLoading } from '../../../components/PageLoading';
import { QueryError } from '../../../components/QueryError';
import { SAME_PAGE } from '../../../lib/same-page';
import {
  changedSettings,
  fromLocalInput,
  saveSettings,
  toLocalInput,
  uploadLogo,
  useAdminSettings,
} from '../api/settings';
import { SECTION_KEYS, SETTINGS_SECTIONS, sectionOf, type SettingsSectionId } from '../settings-sections';
import type { AdminAct } from '../use-admin-action';
import { DivisionsEditor } from './DivisionsEditor';
import { SectionFields, type SectionFormState } from './SettingsSectionFields';

/** The admin's time zone, named, so the dates say which clock they are in. */
function timeZoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
}

/**
 * The Settings tab: the event's settings, stored in the database and applied to every process at
 * once, in sections (Event, Branding, Texts, Play, Writeups, Integrity), one shown at a time, each
 * with its own Save and its own address (`?tab=settings&section=ID`). Dates are entered and shown
 * in the admin's own time zone and saved in UTC; only the settings of the section that changed
 * are sent.
 */
export function SettingsTab({ act }: { act: AdminAct }) {
  const settings = useAdminSettings();
  const [params, setParams] = useSearchParams();
  const section = sectionOf(params.get('section'));
  const open = (id: SettingsSectionId) => setParams({ tab: 'settings', section: id }, SAME_PAGE);
  if (settings.isError)
    return <QueryError what="the settings" error={settings.error} onRetry={() => settings.refetch()} />;
  if (!settings.data) return <PageLoading />;
  return (
    <>
      <nav aria-label="Settings sections">
        <Nav as="ul" variant="pills" className="mb-3 flex-wrap">
          {SETTINGS_SECTIONS.map((s) => (
            <Nav.Item as="li" key={s.id}>
              <Nav.Link
                href={`?tab=settings&section=${s.id}`}
                active={s.id === section}
                aria-current={s.id === section ? 'page' : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  open(s.id);
                }}
              >
                {s.title}
              </Nav.Link>
            </Nav.Item>
          ))}
        </Nav>
      </nav>
      {/* Keyed by the section and the loaded values: a save that comes back reloads the form. */}
      <SectionForm
        key={`${section}:${JSON.stringify(settings.data)}`}
        section={section}
        loaded={settings.data}
        act={act}
      />
      {section === 'play' && <DivisionsEditor act={act} />}
    </>
  );
}

function SectionForm({
  section,
  loaded,
  act,
}: {
  section: SettingsSectionId;
  loaded: AdminSettings;
  act: AdminAct;
}) {
  const [form, setForm] = useState<AdminSettings>(loaded);
  const [start, setStart] = useState(toLocalInput(loaded.eventStart));
  const [end, setEnd] = useState(toLocalInput(loaded.eventEnd));
  const [logo, setLogo] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const title = SETTINGS_SECTIONS.find((s) => s.id === section)!.title;

  const state: SectionFormState = {
    form,
    loaded,
    set: (key, value) => setForm((f) => ({ ...f, [key]: value })),
    start,
    setStart,
    end,
    setEnd,
    setLogo,
    zone: timeZoneName(),
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const next = {
      ...form,
      eventStart: fromLocalInput(start) ?? form.eventStart,
      eventEnd: fromLocalInput(end) ?? form.eventEnd,
    };
    const all = changedSettings(loaded, next);
    const mine: readonly string[] = SECTION_KEYS[section];
    const changes = Object.fromEntries(Object.entries(all).filter(([key]) => mine.includes(key)));
    setBusy(true);
    try {
      if (Object.keys(changes).length > 0) await act(() => saveSettings(changes));
      if (logo) {
        const outcome = await act(() => uploadLogo(logo));
        if (outcome.success) setLogo(null);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form aria-label={`${title} settings`} onSubmit={(e) => void submit(e)}>
      <h2 className="h4">{title}</h2>
      <SectionFields section={section} state={state} />
      <Button type="submit" aria-disabled={busy}>
        Save Settings
      </Button>
    </Form>
  );
}
