import { LOGIN_METHODS, REGISTRATION_LIMITS, type LoginMethod, type RegistrationRules } from '@ctf/contract';
import { useState } from 'react';
import { Button, Form, ListGroup } from 'react-bootstrap';

const METHOD_NAMES: Record<LoginMethod, string> = {
  discord: 'Discord',
  github: 'GitHub',
  oidc: 'Single sign-on (OpenID Connect)',
  email: 'E-mail and password',
  local: 'Local trial sign-in',
};

/** Every way in, the saved order first: the server shows only the configured ones, in this order. */
function fullOrder(order: readonly LoginMethod[]): LoginMethod[] {
  return [...order, ...LOGIN_METHODS.filter((m) => !order.includes(m))];
}

/** The domains as typed (commas or spaces between them), lower-cased, each once. */
export function parseDomains(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
        .filter((d) => d !== ''),
    ),
  ];
}

/**
 * Sign-in in the Settings tab: the order of the login page's ways in, and who may make a new
 * account (open or closed, allowed e-mail domains, a registration code).
 */
export function SignInSettingsFields({
  order,
  onOrderChange,
  registration,
  onRegistrationChange,
}: {
  order: LoginMethod[];
  onOrderChange: (next: LoginMethod[]) => void;
  registration: RegistrationRules;
  onRegistrationChange: (next: RegistrationRules) => void;
}) {
  const [domains, setDomains] = useState(registration.allowedEmailDomains.join(', '));
  const list = fullOrder(order);
  const move = (i: number, by: -1 | 1) => {
    const next = [...list];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    onOrderChange(next);
  };
  return (
    <>
      <h2 className="h4">Sign-in</h2>
      <p id="settings-login-order-help" className="small text-body-secondary mb-1">
        The order of the login page&apos;s buttons. Only the ways in the server is configured for are shown.
      </p>
      <ListGroup as="ol" numbered className="mb-3" aria-describedby="settings-login-order-help">
        {list.map((m, i) => (
          <ListGroup.Item as="li" key={m} className="d-flex flex-wrap align-items-center gap-2">
            <span className="me-auto">{METHOD_NAMES[m]}</span>
            <Button
              size="sm"
              variant="outline-secondary"
              aria-label={`Move ${METHOD_NAMES[m]} up`}
              disabled={i === 0}
              onClick={() => move(i, -1)}
            >
              Up
            </Button>
            <Button
              size="sm"
              variant="outline-secondary"
              aria-label={`Move ${METHOD_NAMES[m]} down`}
              disabled={i === list.length - 1}
              onClick={() => move(i, 1)}
            >
              Down
            </Button>
          </ListGroup.Item>
        ))}
      </ListGroup>
      <Form.Check
        id="settings-registration-open"
        className="mb-2"
        label="Registration open: new accounts may be made (existing ones always sign in)"
        checked={registration.open}
        onChange={(e) => onRegistrationChange({ ...registration, open: e.target.checked })}
      />
      <Form.Group className="mb-3" controlId="settings-registration-domains">
        <Form.Label>Allowed e-mail domains for new accounts (empty: any)</Form.Label>
        <Form.Control
          value={domains}
          placeholder="uni.example, student.uni.example"
          onChange={(e) => {
            setDomains(e.target.value);
            onRegistrationChange({ ...registration, allowedEmailDomains: parseDomains(e.target.value) });
          }}
        />
        <Form.Text>
          A new account needs an address at one of these that its provider verified (at most{' '}
          {REGISTRATION_LIMITS.maxDomains}).
        </Form.Text>
      </Form.Group>
      <Form.Group className="mb-3" controlId="settings-registration-code">
        <Form.Label>Registration code (empty: none)</Form.Label>
        <Form.Control
          value={registration.code ?? ''}
          maxLength={REGISTRATION_LIMITS.codeMax}
          autoComplete="off"
          onChange={(e) => onRegistrationChange({ ...registration, code: e.target.value || null })}
        />
        <Form.Text>Asked once, before a new account is made.</Form.Text>
      </Form.Group>
    </>
  );
}
