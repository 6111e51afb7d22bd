import { OAUTH_PROVIDERS, type AdminSettings, type OAuthProvider, type SetupStatus } from '@ctf/contract';
import { useEffect, useState, type ReactNode } from 'react';
import { Badge, Button, Card } from 'react-bootstrap';
import { useSiteInfo } from '../../../lib/site-info';
import { useAdminSettings } from '../api/settings';
import { addSampleChallenges, useSetupStatus } from '../api/setup';
import { updateSiteInfo, useAdminSiteInfo } from '../api/site';
import type { AdminAct } from '../use-admin-action';

const PROVIDER_NAME: Record<OAuthProvider, string> = { discord: 'Discord', github: 'GitHub' };

/**
 * The first admin's set-up checklist at the top of the panel, on a site with no challenges: the
 * name and dates, how players will log in, the Discord webhook, the sample challenges, opening the
 * site. Once shown it stays for the visit (adding the samples gives the site challenges), until
 * the admin hides it.
 */
export function SetupChecklist({ act, onOpenSettings }: { act: AdminAct; onOpenSettings: () => void }) {
  const setup = useSetupStatus();
  const [shown, setShown] = useState<'no' | 'yes' | 'hidden'>('no');
  useEffect(() => {
    if (setup.data?.challenges === 0) setShown((s) => (s === 'no' ? 'yes' : s));
  }, [setup.data?.challenges]);
  if (shown !== 'yes' || !setup.data) return null;
  return (
    <Card
      as="section"
      className="mb-3 border-primary"
      aria-labelledby="setup-heading"
      data-testid="setup-checklist"
    >
      <Card.Body>
        <h2 id="setup-heading" className="h4">
          Set up your event
        </h2>
        <p className="text-body-secondary">
          This site has no challenges yet. These steps take a few minutes; each can be changed later.
        </p>
        <ol className="d-grid gap-3 ps-3">
          <NameAndDates onOpenSettings={onOpenSettings} />
          <SignIn setup={setup.data} />
          <Webhook configured={setup.data.webhook} />
          <SampleChallenges act={act} challenges={setup.data.challenges} />
          <OpenSite act={act} />
        </ol>
        <Button variant="link" className="px-0" onClick={() => setShown('hidden')}>
          Hide this checklist
        </Button>
      </Card.Body>
    </Card>
  );
}

function Step({ title, done, children }: { title: string; done?: boolean; children: ReactNode }) {
  return (
    <li>
      <h3 className="h6 mb-1">
        {title}{' '}
        {done !== undefined && <Badge bg={done ? 'success' : 'secondary'}>{done ? 'Done' : 'To do'}</Badge>}
      </h3>
      {children}
    </li>
  );
}

/** What the timed switches do, in a sentence (Settings, Event section). */
export function playSchedule(settings: Pick<AdminSettings, 'autoOpen' | 'autoClose'>): string {
  if (settings.autoOpen && settings.autoClose)
    return 'Play opens by itself at the start and closes at the end.';
  if (settings.autoOpen)
    return 'Play opens by itself at the start; it stays open after the end until you close it.';
  if (settings.autoClose) return 'Play closes by itself at the end; you open it yourself (the last step).';
  return 'Play opens and closes only when you switch the site on and off.';
}

function NameAndDates({ onOpenSettings }: { onOpenSettings: () => void }) {
  const info = useSiteInfo().data;
  const settings = useAdminSettings().data;
  const when = (iso: string) =>
    new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Step title="Name and dates">
      {info && (
        <p className="mb-1" data-testid="setup-dates">
          “{info.name}” runs from {when(info.eventStart)} to {when(info.eventEnd)} (your time).
          {settings && <> {playSchedule(settings)}</>}
        </p>
      )}
      <Button variant="outline-primary" size="sm" onClick={onOpenSettings}>
        Change the name and dates in Settings
      </Button>
    </Step>
  );
}

function SignIn({ setup }: { setup: SetupStatus }) {
  const configured = OAUTH_PROVIDERS.filter((p) => setup.login[p]);
  return (
    <Step title="How players will log in" done={configured.length > 0}>
      <ul className="mb-1 text-break">
        {OAUTH_PROVIDERS.map((p) => (
          <li key={p} data-testid={`setup-provider-${p}`}>
            {setup.login[p] ? (
              <>
                <strong>{PROVIDER_NAME[p]}: configured.</strong> Its app must list the redirect URL{' '}
                <code>{setup.redirectUrls[p]}</code>.
              </>
            ) : (
              <>
                {PROVIDER_NAME[p]}: not configured. Register an OAuth app with the redirect URL{' '}
                <code>{setup.redirectUrls[p]}</code>, then set <code>{p.toUpperCase()}_CLIENT_ID</code> and{' '}
                <code>{p.toUpperCase()}_CLIENT_SECRET</code> and restart the server.
              </>
            )}
          </li>
        ))}
        {setup.login.local && (
          <li>
            Local trial sign-in by name is on: it works on this computer only, never on a deployed site.
          </li>
        )}
      </ul>
      <p className="mb-0 small">
        Step by step: “Registering the OAuth applications” in the project&apos;s <code>README.md</code>; for a
        deployed site, <code>docs/deploy.md</code>.
      </p>
    </Step>
  );
}

function Webhook({ configured }: { configured: boolean }) {
  return (
    <Step title="Discord webhook (optional)" done={configured}>
      <p className="mb-0">
        {configured ? (
          'On: announcements and first bloods are posted to your Discord channel.'
        ) : (
          <>
            Off. To post announcements and first bloods to a Discord channel, set{' '}
            <code>DISCORD_WEBHOOK_URL</code> (Server Settings → Integrations → Webhooks) and restart the
            server.
          </>
        )}
      </p>
    </Step>
  );
}

function SampleChallenges({ act, challenges }: { act: AdminAct; challenges: number }) {
  const [busy, setBusy] = useState(false);
  const added = challenges > 0;
  async function add() {
    if (busy) return;
    setBusy(true);
    try {
      await act(addSampleChallenges);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Step title="Challenges" done={added}>
      <p className="mb-1">
        {added
          ? `The site has ${challenges} challenge${challenges === 1 ? '' : 's'}: see View Challenges.`
          : 'Start from three sample challenges (one with a file), or create your own in Create Challenge or Import / Export.'}
      </p>
      {!added && (
        <Button variant="outline-primary" size="sm" aria-disabled={busy} onClick={() => void add()}>
          Add the sample challenges
        </Button>
      )}
    </Step>
  );
}

function OpenSite({ act }: { act: AdminAct }) {
  const site = useAdminSiteInfo();
  const [busy, setBusy] = useState(false);
  const open = site.data?.activated === true;
  async function openSite() {
    if (busy) return;
    setBusy(true);
    try {
      await act(() => updateSiteInfo(true));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Step title="Open the site" done={open}>
      <p className="mb-1">
        {open
          ? 'The site is open: players see the challenges and can submit flags.'
          : 'Until then players see when the event opens, but no challenges.'}
      </p>
      {!open && site.data && (
        <Button variant="primary" size="sm" aria-disabled={busy} onClick={() => void openSite()}>
          Open the site
        </Button>
      )}
    </Step>
  );
}
