import { POPUP_PROVIDERS, REGISTRATION_MESSAGES, type OAuthMessage, type PopupProvider } from '@ctf/contract';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Card, Container, Form } from 'react-bootstrap';
import { useNavigate, useSearchParams } from 'react-router';
import { FormStatus } from '../../../components/AccountFields';
import { PageLoading } from '../../../components/PageLoading';
import { QueryError } from '../../../components/QueryError';
import { useResetSession } from '../../../lib/auth';
import { useSiteInfo } from '../../../lib/site-info';
import { useSubmission } from '../../../lib/use-submission';
import { localLogin } from '../api/local-login';
import { listenForLoginResult, openLoginPopup } from '../../../lib/oauth-popup';
import { EmailSignIn } from './EmailSignIn';
import { RegistrationCodeForm } from './RegistrationCodeForm';

export function LoginPage() {
  const navigate = useNavigate();
  const resetSession = useResetSession();
  const site = useSiteInfo();
  const [params] = useSearchParams();
  const confirmed = params.get('confirmed');
  const [message, setMessage] = useState('');
  const [notice, setNotice] = useState('');
  // A new account on a site with a registration code: the code is asked, then the sign-in retried.
  const [askCode, setAskCode] = useState(false);
  const stopListening = useRef<(() => void) | null>(null);

  useEffect(() => () => stopListening.current?.(), []);

  async function onLoginResult(result: OAuthMessage) {
    stopListening.current = null;
    if (result.type === 'OAUTH_SUCCESS') {
      await resetSession();
      void navigate('/compete');
    } else {
      setMessage(result.message);
      if (result.message === REGISTRATION_MESSAGES.code) setAskCode(true);
    }
  }

  function login(provider: PopupProvider) {
    setMessage('');
    setNotice('');
    stopListening.current?.();
    stopListening.current = listenForLoginResult((m) => void onLoginResult(m));
    const popup = openLoginPopup(provider);
    if (!popup) setMessage('The login window was blocked. Allow pop-ups for this site and try again.');
  }

  const info = site.data;
  // The ways in the server offers, in the admin's order: a popup button for each provider.
  const methods = info?.loginMethods ?? [];
  const providers = methods.filter((m): m is PopupProvider =>
    (POPUP_PROVIDERS as readonly string[]).includes(m),
  );
  const local = methods.includes('local');
  // The page's blocks in the admin's order: the popup buttons together, where the first of them is.
  const sections = [
    ...new Set(methods.map((m) => ((POPUP_PROVIDERS as readonly string[]).includes(m) ? 'popup' : m))),
  ] as ('popup' | 'email' | 'local')[];
  const label = (p: PopupProvider) =>
    p === 'oidc' ? (info?.oidcLabel ?? 'Single sign-on') : PROVIDER_BUTTON[p].name;
  return (
    <Container className="py-4" style={{ maxWidth: 480 }}>
      <h1 className="mb-4">Login</h1>
      {confirmed === '1' && (
        <Alert variant="success" data-testid="confirmed">
          Your e-mail address is confirmed: sign in below.
        </Alert>
      )}
      {confirmed === '0' && (
        <Alert variant="warning" data-testid="confirmed">
          This confirmation link is not valid any more. Sign up again with the same address to get a new one.
        </Alert>
      )}
      {site.isPending && <PageLoading />}
      {site.isError && (
        <QueryError what="the sign-in options" error={site.error} onRetry={() => site.refetch()} />
      )}
      {sections.map((section) =>
        section === 'popup' ? (
          <Card body key="popup" className="mb-4">
            <div className="d-grid gap-3">
              {providers.map((p) => (
                <Button key={p} variant={PROVIDER_BUTTON[p].variant} size="lg" onClick={() => login(p)}>
                  {p === 'oidc' ? label(p) : `Login with ${label(p)}`}
                </Button>
              ))}
            </div>
          </Card>
        ) : section === 'email' ? (
          <EmailSignIn
            key="email"
            onDone={onLoginResult}
            onRefused={(m) => {
              if (m === REGISTRATION_MESSAGES.code) setAskCode(true);
            }}
          />
        ) : (
          <LocalLoginForm key="local" onDone={onLoginResult} />
        ),
      )}
      <div aria-live="polite" className="mt-3" data-testid="login-message">
        {message && <Alert variant="danger">{message}</Alert>}
        {notice && <Alert variant="success">{notice}</Alert>}
      </div>
      {askCode && (
        <RegistrationCodeForm
          onAccepted={(m) => {
            setAskCode(false);
            setMessage('');
            setNotice(m);
          }}
        />
      )}
      {info && methods.length === 0 && <NoSignInHelp />}
      {info?.firstAdminNeeded && <FirstAdminHelp local={local} />}
    </Container>
  );
}

/** Only the providers the server has an application for get a button. */
const PROVIDER_BUTTON: Record<PopupProvider, { name: string; variant: string }> = {
  discord: { name: 'Discord', variant: 'primary' },
  github: { name: 'GitHub', variant: 'dark' },
  oidc: { name: 'Single sign-on', variant: 'success' },
};

/** A deployed site without any sign-in: nobody can log in until the organiser configures one. */
function NoSignInHelp() {
  const origin = window.location.origin;
  return (
    <Alert variant="warning" data-testid="no-sign-in">
      <Alert.Heading as="h2" className="h5">
        Sign-in is not set up yet
      </Alert.Heading>
      <p className="mb-1">
        This server has no way to sign in configured, so nobody can log in. The organiser registers an
        application, sets <code>GITHUB_CLIENT_ID</code> and <code>GITHUB_CLIENT_SECRET</code> (or the{' '}
        <code>DISCORD_</code> pair, or <code>OIDC_ISSUER</code> with its client for single sign-on), or{' '}
        <code>SMTP_URL</code> for e-mail accounts, and restarts the server. The redirect URL to register is{' '}
        <code>{origin}/api/auth/github/callback</code> (or <code>{origin}/api/auth/discord/callback</code>,{' '}
        <code>{origin}/api/auth/oidc/callback</code>).
      </p>
      <p className="mb-0">
        Step by step: “Registering the OAuth applications” in the project&apos;s <code>README.md</code>, and{' '}
        <code>docs/deploy.md</code>.
      </p>
    </Alert>
  );
}

/** A fresh site has no admin yet: how the person who deployed it becomes the first one. */
function FirstAdminHelp({ local }: { local: boolean }) {
  return (
    <Alert variant="info" className="mt-4" data-testid="first-admin-help">
      <Alert.Heading as="h2" className="h5">
        This site has no admin yet
      </Alert.Heading>
      <p className="mb-1">
        Name your account in the <code>ADMINS</code> setting of the server (for example{' '}
        <code>ADMINS=github:your-login</code> or <code>discord:your-name</code>), restart it, and log in: the
        account is an admin from that login. Admins can then make other users admins from the Users tab.
      </p>
      {local && (
        <p className="mb-0">On this local trial you can also tick “Sign in as an administrator” below.</p>
      )}
    </Alert>
  );
}

function LocalLoginForm({ onDone }: { onDone: (m: OAuthMessage) => Promise<void> }) {
  const [username, setUsername] = useState('');
  const [admin, setAdmin] = useState(false);
  const form = useSubmission('Sign-in failed');

  const submit = (e: FormEvent) =>
    form.submit(e, async () => {
      const r = await localLogin(username, admin);
      if (r.ok) await onDone({ type: 'OAUTH_SUCCESS' });
      else form.setError(r.message || 'Sign-in failed');
    });

  return (
    <Card body className="mb-4">
      <h2 className="h5">Local trial sign-in</h2>
      <p className="small text-body-secondary">
        No Discord or GitHub app is configured and this site runs on this computer, so you can sign in with
        just a name to try it. A deployed site never offers this. For sample challenges, sign in as an admin:
        the admin panel’s set-up checklist adds them.
      </p>
      <Form onSubmit={(e) => void submit(e)}>
        <Form.Group className="mb-2" controlId="local-username">
          <Form.Label>Username</Form.Label>
          <Form.Control
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            required
            maxLength={39}
          />
        </Form.Group>
        <Form.Check
          className="mb-2"
          id="local-admin"
          label="Sign in as an administrator"
          checked={admin}
          onChange={(e) => setAdmin(e.target.checked)}
        />
        <FormStatus error={form.error} />
        <Button type="submit" disabled={form.busy}>
          Sign in
        </Button>
      </Form>
    </Card>
  );
}
