import { PASSWORD_RULES, type OAuthMessage } from '@ctf/contract';
import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, Form, Nav } from 'react-bootstrap';
import { NetworkError } from '../../../lib/api';
import { emailLogin, forgotPassword, registerAccount } from '../api/email-accounts';

type Mode = 'login' | 'register' | 'forgot';

const TITLES: Record<Mode, string> = {
  login: 'Sign in with e-mail',
  register: 'Create an account',
  forgot: 'Forgot your password?',
};

/**
 * E-mail and password: sign in, create an account (confirmed by a mailed link) or ask for a reset
 * link. The server answers the same whether or not an address has an account.
 */
export function EmailSignIn({
  onDone,
  onRefused,
}: {
  onDone: (m: OAuthMessage) => Promise<void>;
  onRefused: (message: string) => void;
}) {
  const [mode, setMode] = useState<Mode>('login');
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError('');
    setNotice('');
    try {
      if (mode === 'login') {
        const r = await emailLogin(email, password);
        if (r.ok) await onDone({ type: 'OAUTH_SUCCESS' });
        else setError(r.message || 'Sign-in failed');
      } else if (mode === 'register') {
        const r = await registerAccount(username, email, password);
        if (r.ok) {
          setNotice(r.data.message);
          setPassword('');
        } else {
          setError(r.message || 'Sign-up failed');
          onRefused(r.message);
        }
      } else {
        const r = await forgotPassword(email);
        if (r.ok) setNotice(r.data.message);
        else setError(r.message || 'The request failed');
      }
    } catch (err) {
      setError(
        err instanceof NetworkError ? 'The server could not be reached. Try again.' : 'The request failed',
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card body className="mb-4" data-testid="email-sign-in">
      <h2 className="h5">{TITLES[mode]}</h2>
      <Nav variant="underline" className="mb-3 flex-wrap" as="ul">
        {(['login', 'register', 'forgot'] as const).map((m) => (
          <Nav.Item as="li" key={m}>
            <Nav.Link
              as="button"
              type="button"
              active={mode === m}
              aria-current={mode === m ? 'true' : undefined}
              onClick={() => {
                setMode(m);
                setError('');
                setNotice('');
              }}
            >
              {m === 'login' ? 'Sign in' : m === 'register' ? 'Sign up' : 'Reset password'}
            </Nav.Link>
          </Nav.Item>
        ))}
      </Nav>
      <Form onSubmit={(e) => void submit(e)}>
        {mode === 'register' && (
          <Form.Group className="mb-2" controlId="email-username">
            <Form.Label>Username</Form.Label>
            <Form.Control
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              required
              maxLength={39}
              autoComplete="username"
            />
          </Form.Group>
        )}
        <Form.Group className="mb-2" controlId="email-address">
          <Form.Label>E-mail address</Form.Label>
          <Form.Control
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
            maxLength={254}
            autoComplete="email"
          />
        </Form.Group>
        {mode !== 'forgot' && (
          <Form.Group className="mb-2" controlId="email-password">
            <Form.Label>Password</Form.Label>
            <Form.Control
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
              minLength={mode === 'register' ? PASSWORD_RULES.minLength : undefined}
              maxLength={PASSWORD_RULES.maxLength}
              autoComplete={mode === 'register' ? 'new-password' : 'current-password'}
              aria-describedby={mode === 'register' ? 'email-password-help' : undefined}
            />
            {mode === 'register' && (
              <Form.Text id="email-password-help">
                At least {PASSWORD_RULES.minLength} characters, without your username or e-mail address.
              </Form.Text>
            )}
          </Form.Group>
        )}
        <div aria-live="polite">
          {error && <Alert variant="danger">{error}</Alert>}
          {notice && <Alert variant="success">{notice}</Alert>}
        </div>
        <Button type="submit" disabled={busy}>
          {mode === 'login' ? 'Sign in' : mode === 'register' ? 'Create account' : 'Send me a link'}
        </Button>
      </Form>
    </Card>
  );
}
