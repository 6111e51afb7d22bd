import type { AdminUser, IdentityKind } from '@ctf/contract';
import { useState, type FormEvent } from 'react';
import { Button, Form, InputGroup, ListGroup } from 'react-bootstrap';
import { blockEmail, resendConfirmation, useBlockedEmails, useSignIns } from '../api/sign-ins';
import type { AdminAct } from '../use-admin-action';
import type { AdminColumn } from './AdminTable';

const NAMES: Record<IdentityKind, string> = {
  discord: 'Discord',
  github: 'GitHub',
  oidc: 'Single sign-on',
  email: 'E-mail',
};

/**
 * The Users tab's "Ways in" column: each user's providers (names only, never a secret) and whether
 * their e-mail sign-in is confirmed, with a button to resend the confirmation (admins).
 */
export function useWaysInColumn(act: AdminAct, mayResend: boolean): AdminColumn<AdminUser> {
  const signIns = useSignIns();
  const byUser = new Map((signIns.data ?? []).map((s) => [s.user_id, s]));
  return {
    header: 'Ways in',
    cell: (u) => {
      const s = byUser.get(u._id);
      if (!s) return '';
      return (
        <div className="d-flex flex-wrap gap-1 align-items-center">
          {s.ways.map((w) => NAMES[w]).join(', ')}
          {s.emailVerified === false && (
            <>
              <span className="badge text-bg-warning">e-mail not confirmed</span>
              {mayResend && (
                <Button
                  size="sm"
                  variant="outline-secondary"
                  aria-label={`Resend the confirmation: ${u.username}`}
                  onClick={() => void act(() => resendConfirmation(u._id))}
                >
                  Resend
                </Button>
              )}
            </>
          )}
          {s.emailVerified === true && <span className="badge text-bg-success">e-mail confirmed</span>}
        </div>
      );
    },
  };
}

/** Blocked addresses: no e-mail sign-up, sign-in or reset with them (admins). */
export function BlockedEmails({ act }: { act: AdminAct }) {
  const blocked = useBlockedEmails(true);
  const [email, setEmail] = useState('');
  function submit(e: FormEvent) {
    e.preventDefault();
    void act(() => blockEmail(email.trim(), true)).then((o) => o.success && setEmail(''));
  }
  return (
    <section aria-labelledby="blocked-emails-heading" className="mt-4">
      <h2 id="blocked-emails-heading" className="h5">
        Blocked e-mail addresses
      </h2>
      <Form onSubmit={submit} className="mb-2" style={{ maxWidth: 480 }}>
        <InputGroup>
          <Form.Control
            type="email"
            aria-label="Address to block"
            placeholder="someone@example.org"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
            maxLength={254}
          />
          <Button type="submit" variant="outline-danger">
            Block
          </Button>
        </InputGroup>
      </Form>
      {(blocked.data ?? []).length > 0 && (
        <ListGroup>
          {blocked.data!.map((b) => (
            <ListGroup.Item
              key={b.email}
              className="d-flex flex-wrap justify-content-between align-items-center gap-2"
            >
              <span className="text-break">{b.email}</span>
              <Button
                size="sm"
                variant="outline-secondary"
                aria-label={`Unblock ${b.email}`}
                onClick={() => void act(() => blockEmail(b.email, false))}
              >
                Unblock
              </Button>
            </ListGroup.Item>
          ))}
        </ListGroup>
      )}
    </section>
  );
}
