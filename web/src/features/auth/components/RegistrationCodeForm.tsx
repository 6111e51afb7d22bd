import { REGISTRATION_LIMITS } from '@ctf/contract';
import { useState, type FormEvent } from 'react';
import { Button, Card, Form } from 'react-bootstrap';
import { FormStatus } from '../../../components/AccountFields';
import { useSubmission } from '../../../lib/use-submission';
import { sendRegistrationCode } from '../api/registration-code';

/**
 * Asked when a sign-in would make a new account on a site with a registration code: the right code
 * gives this browser a pass for an hour, and the person signs in again.
 */
export function RegistrationCodeForm({ onAccepted }: { onAccepted: (message: string) => void }) {
  const [code, setCode] = useState('');
  const form = useSubmission('The code was not accepted.');

  const submit = (e: FormEvent) =>
    form.submit(e, async () => {
      const r = await sendRegistrationCode(code);
      if (r.ok) onAccepted(r.data.message);
      else form.setError(r.message || 'The code was not accepted.');
    });

  return (
    <Card body className="mt-4" data-testid="registration-code">
      <h2 className="h5">Registration code</h2>
      <p className="small text-body-secondary">
        New accounts on this site need the code the organisers gave out. You are asked once; then sign in
        again.
      </p>
      <Form onSubmit={(e) => void submit(e)}>
        <Form.Group className="mb-2" controlId="registration-code-input">
          <Form.Label>Registration code</Form.Label>
          <Form.Control
            value={code}
            onChange={(e) => setCode(e.target.value)}
            required
            autoComplete="off"
            maxLength={REGISTRATION_LIMITS.codeMax}
          />
        </Form.Group>
        <FormStatus error={form.error} />
        <Button type="submit" disabled={form.busy}>
          Send the code
        </Button>
      </Form>
    </Card>
  );
}
