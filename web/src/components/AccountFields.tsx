import { PASSWORD_RULES } from '@ctf/contract';
import type { ReactNode } from 'react';
import { Alert, Form } from 'react-bootstrap';

/** The e-mail address field of every account form (the contract's longest address). */
export function EmailField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Form.Group className="mb-2" controlId={id}>
      <Form.Label>E-mail address</Form.Label>
      <Form.Control
        type="email"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        required
        maxLength={254}
        autoComplete="email"
      />
    </Form.Group>
  );
}

/**
 * A password field: `new` asks for the contract's password rules (the browser checks the length
 * and the help below says them), `current` only bounds the length.
 */
export function PasswordField({
  id,
  label,
  purpose,
  value,
  onChange,
  help,
}: {
  id: string;
  label: string;
  purpose: 'new' | 'current';
  value: string;
  onChange: (value: string) => void;
  /** Words under the field, after the rules (new passwords only show them). */
  help?: ReactNode;
}) {
  const helpId = `${id}-help`;
  const showsHelp = purpose === 'new' && help !== undefined;
  return (
    <Form.Group className="mb-2" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type="password"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        required
        minLength={purpose === 'new' ? PASSWORD_RULES.minLength : undefined}
        maxLength={PASSWORD_RULES.maxLength}
        autoComplete={purpose === 'new' ? 'new-password' : 'current-password'}
        aria-describedby={showsHelp ? helpId : undefined}
      />
      {showsHelp && <Form.Text id={helpId}>{help}</Form.Text>}
    </Form.Group>
  );
}

/** The words a new password must follow, as the forms say them. */
export const PASSWORD_HELP = `At least ${PASSWORD_RULES.minLength} characters, without your username or e-mail address.`;

/** A form's outcome, read out by screen readers as it changes. */
export function FormStatus({ error, notice }: { error?: string | null; notice?: string | null }) {
  return (
    <div aria-live="polite">
      {error && <Alert variant="danger">{error}</Alert>}
      {notice && <Alert variant="success">{notice}</Alert>}
    </div>
  );
}
