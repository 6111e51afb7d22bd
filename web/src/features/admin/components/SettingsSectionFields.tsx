import {
  AFTER_END_MODES,
  DEFAULT_REGISTRATION,
  INSTANCE_LIMITS,
  LOGO_TYPES,
  SETTINGS_LIMITS,
  type AdminSettings,
  type AfterEnd,
} from '@ctf/contract';
import type { ReactNode } from 'react';
import { Col, Form, Row } from 'react-bootstrap';
import type { SettingsSectionId } from '../settings-sections';
import { SignInSettingsFields } from './SignInSettingsFields';
import { WriteupSettingsFields } from './WriteupSettingsFields';

const AFTER_END_LABELS: Record<AfterEnd, string> = {
  open: 'Open: play goes on until an admin switches the site off',
  closed: "Closed: flags answer 'The event has ended.'",
  practice: 'Practice: challenges stay playable, solves are recorded apart and never scored',
};

/** What a section's fields read and change: the form, the two dates as typed, the logo chosen. */
export interface SectionFormState {
  form: AdminSettings;
  loaded: AdminSettings;
  set: <K extends keyof AdminSettings>(key: K, value: AdminSettings[K]) => void;
  start: string;
  setStart: (value: string) => void;
  end: string;
  setEnd: (value: string) => void;
  setLogo: (file: File | null) => void;
  /** The admin's time zone, named beside the dates. */
  zone: string;
}

/** The fields of one section of the Settings tab. */
export function SectionFields({ section, state }: { section: SettingsSectionId; state: SectionFormState }) {
  switch (section) {
    case 'event':
      return <EventFields state={state} />;
    case 'branding':
      return <BrandingFields state={state} />;
    case 'texts':
      return <TextsFields state={state} />;
    case 'play':
      return <PlayFields state={state} />;
    case 'writeups':
      return (
        <WriteupSettingsFields
          value={state.form.writeups}
          onChange={(w) => state.set('writeups', w)}
          zone={state.zone}
        />
      );
    case 'signin':
      return (
        <SignInSettingsFields
          order={state.form.loginMethods ?? []}
          onOrderChange={(o) => state.set('loginMethods', o)}
          registration={state.form.registration ?? DEFAULT_REGISTRATION}
          onRegistrationChange={(r) => state.set('registration', r)}
        />
      );
    case 'integrity':
      return <IntegrityFields state={state} />;
  }
}

function TextField({
  state,
  name,
  label,
  max,
  help,
}: {
  state: SectionFormState;
  name: 'name' | 'tagline' | 'prizeText' | 'challengeHost';
  label: string;
  max: number;
  help?: ReactNode;
}) {
  return (
    <Form.Group as={Col} md={6} className="mb-3" controlId={`settings-${name}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        value={state.form[name]}
        maxLength={max}
        onChange={(e) => state.set(name, e.target.value)}
      />
      {help && <Form.Text>{help}</Form.Text>}
    </Form.Group>
  );
}

function EventFields({ state }: { state: SectionFormState }) {
  const { form, set, zone } = state;
  return (
    <>
      <Row>
        <TextField
          state={state}
          name="name"
          label="Event name"
          max={SETTINGS_LIMITS.nameMax}
          help="Shown in the navigation bar, page titles and on the home page."
        />
        <TextField state={state} name="tagline" label="Tagline" max={SETTINGS_LIMITS.taglineMax} />
        <Form.Group as={Col} md={6} className="mb-3" controlId="settings-eventStart">
          <Form.Label>{`Start (${zone})`}</Form.Label>
          <Form.Control
            type="datetime-local"
            value={state.start}
            required
            onChange={(e) => state.setStart(e.target.value)}
          />
        </Form.Group>
        <Form.Group as={Col} md={6} className="mb-3" controlId="settings-eventEnd">
          <Form.Label>{`End (${zone})`}</Form.Label>
          <Form.Control
            type="datetime-local"
            value={state.end}
            required
            onChange={(e) => state.setEnd(e.target.value)}
          />
        </Form.Group>
      </Row>
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
        id="settings-allowCreateDuringEvent"
        className="mb-1"
        label="Allow creating challenges during the event"
        checked={form.allowCreateDuringEvent}
        onChange={(e) => set('allowCreateDuringEvent', e.target.checked)}
      />
      <Form.Text as="p" className="mb-3">
        Off: Create Challenge and the import refuse new challenges between the start and the end. On: they
        work then too; a new challenge can still be scheduled or left disabled until it is ready.
      </Form.Text>
    </>
  );
}

function BrandingFields({ state }: { state: SectionFormState }) {
  return (
    <>
      <Form.Group className="mb-3" controlId="settings-accent">
        <Form.Label>Accent colour</Form.Label>
        <Form.Control
          type="color"
          value={state.form.accent}
          onChange={(e) => state.set('accent', e.target.value)}
        />
        <Form.Text>Buttons and links. Pick a colour that white text reads well on.</Form.Text>
      </Form.Group>
      <Form.Group className="mb-3" controlId="settings-logo">
        <Form.Label>Logo (PNG, JPEG or WebP, at most 1 MB)</Form.Label>
        {state.loaded.logoUrl && (
          <div className="mb-2">
            <img src={state.loaded.logoUrl} alt="Current logo" height={48} />
          </div>
        )}
        <Form.Control
          type="file"
          accept={LOGO_TYPES.join(',')}
          onChange={(e) => state.setLogo((e.target as HTMLInputElement).files?.[0] ?? null)}
        />
      </Form.Group>
    </>
  );
}

function TextsFields({ state }: { state: SectionFormState }) {
  const markdown = (key: 'aboutMd' | 'rulesMd' | 'faqMd', label: string, help: string) => (
    <Form.Group className="mb-3" controlId={`settings-${key}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        as="textarea"
        rows={8}
        className="font-monospace"
        value={state.form[key]}
        maxLength={SETTINGS_LIMITS.markdownMax}
        onChange={(e) => state.set(key, e.target.value)}
      />
      <Form.Text>{help}</Form.Text>
    </Form.Group>
  );
  return (
    <>
      <p className="text-body-secondary">Markdown.</p>
      {markdown('aboutMd', 'About', 'The About section of the home page.')}
      {markdown('rulesMd', 'Rules', 'The /rules page.')}
      {markdown(
        'faqMd',
        'FAQ',
        'Each ### heading is a question of the home page’s FAQ; the text under it is the answer.',
      )}
      <Row>
        <TextField
          state={state}
          name="prizeText"
          label="Prizes"
          max={SETTINGS_LIMITS.prizeTextMax}
          help="Your own sentence, shown as written under About (for example “Pizza and stickers for the top three teams.”). Empty: no prize line."
        />
      </Row>
    </>
  );
}

function NumberField({
  state,
  name,
  label,
  min,
  max,
  help,
}: {
  state: SectionFormState;
  name: 'challengePort' | 'instancesPerTeam' | 'submissionRetentionDays';
  label: string;
  min: number;
  max: number;
  help?: ReactNode;
}) {
  return (
    <Form.Group className="mb-3" controlId={`settings-${name}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type="number"
        min={min}
        max={max}
        step={1}
        value={state.form[name]}
        onChange={(e) => state.set(name, Number(e.target.value))}
      />
      {help && <Form.Text>{help}</Form.Text>}
    </Form.Group>
  );
}

function PlayFields({ state }: { state: SectionFormState }) {
  const url = (key: 'communityUrl' | 'toolsUrl', label: string) => (
    <Form.Group as={Col} md={6} className="mb-3" controlId={`settings-${key}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type="url"
        value={state.form[key]}
        maxLength={SETTINGS_LIMITS.urlMax}
        onChange={(e) => state.set(key, e.target.value)}
      />
    </Form.Group>
  );
  return (
    <>
      <Row>
        {url('communityUrl', 'Community link')}
        {url('toolsUrl', 'Tools link')}
        <TextField state={state} name="challengeHost" label="Challenge host" max={SETTINGS_LIMITS.hostMax} />
        <Col md={6}>
          <NumberField state={state} name="challengePort" label="Challenge port" min={1} max={65535} />
        </Col>
      </Row>
      <NumberField
        state={state}
        name="instancesPerTeam"
        label="Instances per team"
        min={1}
        max={INSTANCE_LIMITS.perTeamMax}
        help="Containers one team (or a player without a team) may run at once; players reach them at the challenge host above."
      />
    </>
  );
}

function IntegrityFields({ state }: { state: SectionFormState }) {
  return (
    <NumberField
      state={state}
      name="submissionRetentionDays"
      label="Keep wrong attempts (days)"
      min={0}
      max={SETTINGS_LIMITS.retentionDaysMax}
      help="Wrong and refused flag attempts older than this are deleted (hourly); correct ones stay. 0 keeps them all."
    />
  );
}
