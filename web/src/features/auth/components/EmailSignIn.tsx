import type { OAuthMessage } from '@ctf/contract';
import { useState, type FormEvent } from 'react';
import { Button, Card, Form, Nav } from 'react-bootstrap';
import { EmailField, FormStatus, PASSWORD_HELP, PasswordField } from '../../../components/AccountFields';
import { useSubmission } from '../../../lib/use-submission';
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
  const form = useSubmission('The request failed');

  const submit = (e: FormEvent) =>
    form.submit(e, async () => {
      if (mode === 'login') {
        const r = await emailLogin(email, password);
        if (r.ok) await onDone({ type: 'OAUTH_SUCCESS' });
        else form.setError(r.message || 'Sign-in failed');
      } else if (mode === 'register') {
        const r = await registerAccount(username, email, password);
        if (r.ok) {
          form.setNotice(r.data.message);
          setPassword('');
        } else {
          form.setError(r.message || 'Sign-up failed');
          onRefused(r.message);
        }
      } else {
        const r = await forgotPassword(email);
        if (r.ok) form.setNotice(r.data.message);
        else form.setError(r.message || 'The request failed');
      }
    });

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
                form.clear();
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
        <EmailField id="email-address" value={email} onChange={setEmail} />
        {mode !== 'forgot' && (
          <PasswordField
            id="email-password"
            label="Password"
            purpose={mode === 'register' ? 'new' : 'current'}
            value={password}
            onChange={setPassword}
            help={PASSWORD_HELP}
          />
        )}
        <FormStatus error={form.error} notice={form.notice} />
        <Button type="submit" disabled={form.busy}>
          {mode === 'login' ? 'Sign in' : mode === 'register' ? 'Create account' : 'Send me a link'}
        </Button>
      </Form>
    </Card>
  );
}
