import { PASSWORD_RULES } from '@ctf/contract';
import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, Container, Form } from 'react-bootstrap';
import { Link, useSearchParams } from 'react-router';
import { NetworkError } from '../../../lib/api';
import { resetPassword } from '../api/email-accounts';

/** Where a password reset mail's link leads: a new password for the account (the link works once). */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const r = await resetPassword(token, password);
      if (r.ok) setDone(r.data.message);
      else setError(r.message || 'The password could not be changed.');
    } catch (err) {
      setError(
        err instanceof NetworkError ? 'The server could not be reached. Try again.' : 'The request failed',
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <Container className="py-4" style={{ maxWidth: 480 }}>
      <h1 className="mb-4">Choose a new password</h1>
      <Card body>
        {done ? (
          <Alert variant="success" className="mb-0">
            {done} <Link to="/login">Go to the login page</Link>
          </Alert>
        ) : (
          <Form onSubmit={(e) => void submit(e)}>
            <Form.Group className="mb-2" controlId="reset-password">
              <Form.Label>New password</Form.Label>
              <Form.Control
                type="password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                required
                minLength={PASSWORD_RULES.minLength}
                maxLength={PASSWORD_RULES.maxLength}
                autoComplete="new-password"
                aria-describedby="reset-password-help"
              />
              <Form.Text id="reset-password-help">
                At least {PASSWORD_RULES.minLength} characters, without your username or e-mail address. Every
                session of your account ends.
              </Form.Text>
            </Form.Group>
            <div aria-live="polite">{error && <Alert variant="danger">{error}</Alert>}</div>
            <Button type="submit" disabled={busy || !token}>
              Set the new password
            </Button>
          </Form>
        )}
      </Card>
    </Container>
  );
}
