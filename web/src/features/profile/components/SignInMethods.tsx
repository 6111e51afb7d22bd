import { type IdentityKind, type OAuthMessage, type PopupProvider } from '@ctf/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button, Form, Table } from 'react-bootstrap';
import { EmailField, FormStatus, PASSWORD_HELP, PasswordField } from '../../../components/AccountFields';
import { QueryError, describeFailure } from '../../../components/QueryError';
import { useSiteInfo } from '../../../lib/site-info';
import { listenForLoginResult, openLoginPopup } from '../../../lib/oauth-popup';
import { addEmailIdentity, identitiesQueryKey, unlinkIdentity, useIdentities } from '../api/identities';

const NAMES: Record<IdentityKind, string> = {
  discord: 'Discord',
  github: 'GitHub',
  oidc: 'Single sign-on',
  email: 'E-mail and password',
};

/**
 * The profile's ways in: each linked one (unlink any but the last), a button to link each other
 * configured provider (its popup, with ?link=1), and an e-mail address and password to add.
 */
export function SignInMethods() {
  const client = useQueryClient();
  const identities = useIdentities();
  const site = useSiteInfo();
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const stop = useRef<(() => void) | null>(null);
  const id = useId();
  useEffect(() => () => stop.current?.(), []);

  const refresh = () => client.invalidateQueries({ queryKey: identitiesQueryKey });
  const label = (p: IdentityKind) => (p === 'oidc' ? (site.data?.oidcLabel ?? NAMES.oidc) : NAMES[p]);

  function link(provider: PopupProvider) {
    setFailure(null);
    setNotice(null);
    stop.current?.();
    stop.current = listenForLoginResult((m: OAuthMessage) => {
      stop.current = null;
      if (m.type === 'OAUTH_SUCCESS') setNotice(m.message ?? 'Linked.');
      else setFailure(m.message);
      void refresh();
    });
    if (!openLoginPopup(provider, true))
      setFailure('The window was blocked. Allow pop-ups for this site and try again.');
  }

  async function act(work: () => Promise<{ ok: boolean; message?: string; data?: { message: string } }>) {
    setBusy(true);
    setFailure(null);
    setNotice(null);
    try {
      const r = await work();
      if (r.ok) setNotice(r.data?.message ?? null);
      else setFailure(r.message || 'The change was refused.');
      await refresh();
    } catch (err) {
      setFailure(describeFailure(err));
    } finally {
      setBusy(false);
    }
  }

  function addEmail(e: FormEvent) {
    e.preventDefault();
    void act(async () => {
      const r = await addEmailIdentity(email.trim(), password);
      if (r.ok) setPassword('');
      return r;
    });
  }

  const mine = identities.data ?? [];
  const linked = new Set(mine.map((i) => i.provider));
  const methods = site.data?.loginMethods ?? [];
  const linkable = methods.filter(
    (m): m is PopupProvider => (m === 'discord' || m === 'github' || m === 'oidc') && !linked.has(m),
  );
  return (
    <section aria-labelledby={`${id}-heading`} className="my-4" data-testid="sign-in-methods">
      <h2 id={`${id}-heading`} className="h4">
        Ways to sign in
      </h2>
      {identities.isError && (
        <QueryError
          what="your ways to sign in"
          error={identities.error}
          onRetry={() => identities.refetch()}
        />
      )}
      {mine.length > 0 && (
        <Table responsive size="sm">
          <thead>
            <tr>
              <th scope="col">Way in</th>
              <th scope="col">Name</th>
              <th scope="col">Linked</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {mine.map((i) => (
              <tr key={i.provider}>
                <td>{label(i.provider)}</td>
                <td className="text-break">{i.name}</td>
                <td>{new Date(i.linkedAt).toLocaleDateString()}</td>
                <td>
                  <Button
                    size="sm"
                    variant="outline-danger"
                    disabled={busy || mine.length <= 1}
                    aria-label={`Unlink ${label(i.provider)}`}
                    onClick={() => void act(() => unlinkIdentity(i.provider))}
                  >
                    Unlink
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <div className="d-flex flex-wrap gap-2 mb-3">
        {linkable.map((p) => (
          <Button key={p} variant="outline-primary" onClick={() => link(p)}>
            Link {label(p)}
          </Button>
        ))}
      </div>
      {methods.includes('email') && !linked.has('email') && (
        <Form onSubmit={addEmail} className="mb-3">
          <h3 className="h6">Add an e-mail address and password</h3>
          <EmailField id={`${id}-email`} value={email} onChange={setEmail} />
          <PasswordField
            id={`${id}-password`}
            label="New password"
            purpose="new"
            value={password}
            onChange={setPassword}
            help={PASSWORD_HELP}
          />
          <Button type="submit" disabled={busy}>
            Add
          </Button>
        </Form>
      )}
      <FormStatus error={failure} notice={notice} />
    </section>
  );
}
