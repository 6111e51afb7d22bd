import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, Container, Form } from 'react-bootstrap';
import { Link, useSearchParams } from 'react-router';
import { FormStatus, PASSWORD_HELP, PasswordField } from '../../../components/AccountFields';
import { useSubmission } from '../../../lib/use-submission';
import { resetPassword } from '../api/email-accounts';

/** Where a password reset mail's link leads: a new password for the account (the link works once). */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [done, setDone] = useState('');
  const form = useSubmission('The request failed');

  const submit = (e: FormEvent) =>
    form.submit(e, async () => {
      const r = await resetPassword(token, password);
      if (r.ok) setDone(r.data.message);
      else form.setError(r.message || 'The password could not be changed.');
    });

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
            <PasswordField
              id="reset-password"
              label="New password"
              purpose="new"
              value={password}
              onChange={setPassword}
              help={`${PASSWORD_HELP} Every session of your account ends.`}
            />
            <FormStatus error={form.error} />
            <Button type="submit" disabled={form.busy || !token}>
              Set the new password
            </Button>
          </Form>
        )}
      </Card>
    </Container>
  );
}
