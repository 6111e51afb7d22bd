import {
  AFTER_END_MODES,
  DEFAULT_REGISTRATION,
  LOGO_TYPES,
  INSTANCE_LIMITS,
  SETTINGS_LIMITS,
  type AdminSettings,
  type AfterEnd,
} from '@ctf/contract';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Button, Col, Form, Row } from 'react-bootstrap';
import { QueryError } from '../../../components/QueryError';
import { PageLoading } from '../../../components/PageLoading';
import {
  changedSettings,
  fromLocalInput,
  saveSettings,
  toLocalInput,
  uploadLogo,
  useAdminSettings,
} from '../api/settings';
import type { AdminAct } from '../use-admin-action';
import { DivisionsEditor } from './DivisionsEditor';
import { SignInSettingsFields } from './SignInSettingsFields';
import { WriteupSettingsFields } from './WriteupSettingsFields';

const AFTER_END_LABELS: Record<AfterEnd, string> = {
  open: 'Open: play goes on until an admin switches the site off',
  closed: "Closed: flags answer 'The event has ended.'",
  practice: 'Practice: challenges stay playable, solves are recorded apart and never scored',
};

/** The admin's time zone, named, so the dates say which clock they are in. */
function timeZoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
}

/**
 * The Settings tab: the event's settings, stored in the database and applied to every process at
 * once. Dates are entered and shown in the admin's own time zone and saved in UTC; only the
 * settings that changed are sent.
 */
export function SettingsTab({ act }: { act: AdminAct }) {
  const settings = useAdminSettings();
  if (settings.isError)
    return <QueryError what="the settings" error={settings.error} onRetry={() => settings.refetch()} />;
  if (!settings.data) return <PageLoading />;
  // Keyed by the loaded values: a save that comes back reloads the form from the server's answer.
  return (
    <>
      <SettingsForm key={JSON.stringify(settings.data)} loaded={settings.data} act={act} />
      <DivisionsEditor act={act} />
    </>
  );
}

function SettingsForm({ loaded, act }: { loaded: AdminSettings; act: AdminAct }) {
  const [form, setForm] = useState<AdminSettings>(loaded);
  const [start, setStart] = useState(toLocalInput(loaded.eventStart));
  const [end, setEnd] = useState(toLocalInput(loaded.eventEnd));
  const [busy, setBusy] = useState(false);
  const [logo, setLogo] = useState<File | null>(null);
  const zone = timeZoneName();

  const set = <K extends keyof AdminSettings>(key: K, value: AdminSettings[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const next = {
      ...form,
      eventStart: fromLocalInput(start) ?? form.eventStart,
      eventEnd: fromLocalInput(end) ?? form.eventEnd,
    };
    const changes = changedSettings(loaded, next);
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

  const text = (
    key: 'name' | 'tagline' | 'prizeText' | 'challengeHost',
    label: string,
    max: number,
    help?: ReactNode,
  ) => (
    <Form.Group as={Col} md={6} className="mb-3" controlId={`settings-${key}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control value={form[key]} maxLength={max} onChange={(e) => set(key, e.target.value)} />
      {help && <Form.Text>{help}</Form.Text>}
    </Form.Group>
  );
  const url = (key: 'communityUrl' | 'toolsUrl', label: string) => (
    <Form.Group as={Col} md={6} className="mb-3" controlId={`settings-${key}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type="url"
        value={form[key]}
        maxLength={SETTINGS_LIMITS.urlMax}
        onChange={(e) => set(key, e.target.value)}
      />
    </Form.Group>
  );
  const markdown = (key: 'aboutMd' | 'rulesMd' | 'faqMd', label: string, help: string) => (
    <Form.Group className="mb-3" controlId={`settings-${key}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        as="textarea"
        rows={8}
        className="font-monospace"
        value={form[key]}
        maxLength={SETTINGS_LIMITS.markdownMax}
        onChange={(e) => set(key, e.target.value)}
      />
      <Form.Text>{help}</Form.Text>
    </Form.Group>
  );

  return (
    <Form aria-label="Event settings" onSubmit={(e) => void submit(e)}>
      <h2 className="h4">Event</h2>
      <Row>
        {text(
          'name',
          'Event name',
          SETTINGS_LIMITS.nameMax,
          'Shown in the navigation bar, page titles and on the home page.',
        )}
        {text('tagline', 'Tagline', SETTINGS_LIMITS.taglineMax)}
        <Form.Group as={Col} md={6} className="mb-3" controlId="settings-eventStart">
          <Form.Label>{`Start (${zone})`}</Form.Label>
          <Form.Control
            type="datetime-local"
            value={start}
            required
            onChange={(e) => setStart(e.target.value)}
          />
        </Form.Group>
        <Form.Group as={Col} md={6} className="mb-3" controlId="settings-eventEnd">
          <Form.Label>{`End (${zone})`}</Form.Label>
          <Form.Control type="datetime-local" value={end} required onChange={(e) => setEnd(e.target.value)} />
        </Form.Group>
        {text('prizeText', 'Prize text', SETTINGS_LIMITS.prizeTextMax, 'For example $1000.')}
        <Form.Group as={Col} md={6} className="mb-3" controlId="settings-accent">
          <Form.Label>Accent colour</Form.Label>
          <Form.Control type="color" value={form.accent} onChange={(e) => set('accent', e.target.value)} />
          <Form.Text>Buttons and links. Pick a colour that white text reads well on.</Form.Text>
        </Form.Group>
      </Row>

      <h2 className="h4">Texts (Markdown)</h2>
      {markdown('aboutMd', 'About', 'The About section of the home page.')}
      {markdown('rulesMd', 'Rules', 'The /rules page.')}
      {markdown(
        'faqMd',
        'FAQ',
        'Each ### heading is a question of the home page’s FAQ; the text under it is the answer.',
      )}

      <h2 className="h4">Links and challenge servers</h2>
      <Row>
        {url('communityUrl', 'Community link')}
        {url('toolsUrl', 'Tools link')}
        {text('challengeHost', 'Challenge host', SETTINGS_LIMITS.hostMax)}
        <Form.Group as={Col} md={6} className="mb-3" controlId="settings-challengePort">
          <Form.Label>Challenge port</Form.Label>
          <Form.Control
            type="number"
            min={1}
            max={65535}
            value={form.challengePort}
            onChange={(e) => set('challengePort', Number(e.target.value))}
          />
        </Form.Group>
      </Row>

      <h2 className="h4">Logo</h2>
      <Form.Group className="mb-3" controlId="settings-logo">
        <Form.Label>Logo (PNG, JPEG or WebP, at most 1 MB)</Form.Label>
        {loaded.logoUrl && (
          <div className="mb-2">
            <img src={loaded.logoUrl} alt="Current logo" height={48} />
          </div>
        )}
        <Form.Control
          type="file"
          accept={LOGO_TYPES.join(',')}
          onChange={(e) => setLogo((e.target as HTMLInputElement).files?.[0] ?? null)}
        />
      </Form.Group>

      <h2 className="h4">Opening and closing</h2>
      <Form.Group className="mb-3" controlId="settings-afterEnd">
        <Form.Label>After the end time</Form.Label>
        <Form.Select value={form.afterEnd} onChange={(e) => set('afterEnd', e.target.value as AfterEnd)}>
          {AFTER_END_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {AFTER_END_LABELS[mode]}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Check
        id="settings-autoOpen"
        className="mb-2"
        label="Switch the site on at the start time"
        checked={form.autoOpen}
        onChange={(e) => set('autoOpen', e.target.checked)}
      />
      <Form.Check
        id="settings-autoClose"
        className="mb-3"
        label="Apply the after-event setting at the end time (with Open, the site switches off)"
        checked={form.autoClose}
        onChange={(e) => set('autoClose', e.target.checked)}
      />
      <h2 className="h4">Submission log</h2>
      <Form.Group className="mb-3" controlId="settings-submissionRetentionDays">
        <Form.Label>Keep wrong attempts (days)</Form.Label>
        <Form.Control
          type="number"
          min={0}
          max={SETTINGS_LIMITS.retentionDaysMax}
          step={1}
          value={form.submissionRetentionDays}
          onChange={(e) => set('submissionRetentionDays', Number(e.target.value))}
        />
        <Form.Text>
          Wrong and refused flag attempts older than this are deleted (hourly); correct ones stay. 0 keeps
          them all.
        </Form.Text>
      </Form.Group>
      <h2 className="h4">Challenge instances</h2>
      <Form.Group className="mb-3" controlId="settings-instancesPerTeam">
        <Form.Label>Instances per team</Form.Label>
        <Form.Control
          type="number"
          min={1}
          max={INSTANCE_LIMITS.perTeamMax}
          step={1}
          value={form.instancesPerTeam}
          onChange={(e) => set('instancesPerTeam', Number(e.target.value))}
        />
        <Form.Text>
          Containers one team (or a player without a team) may run at once; players reach them at the
          challenge host above.
        </Form.Text>
      </Form.Group>
      <WriteupSettingsFields value={form.writeups} onChange={(w) => set('writeups', w)} zone={zone} />
      <SignInSettingsFields
        order={form.loginMethods ?? []}
        onOrderChange={(o) => set('loginMethods', o)}
        registration={form.registration ?? DEFAULT_REGISTRATION}
        onRegistrationChange={(r) => set('registration', r)}
      />
      <Button type="submit" aria-disabled={busy}>
        Save Settings
      </Button>
    </Form>
  );
}
