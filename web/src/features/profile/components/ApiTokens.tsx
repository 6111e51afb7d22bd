import {
  API_TOKEN_LIMITS,
  DEFAULT_TOKEN_SCOPES,
  UI_TEXT,
  scopesForRole,
  type ApiToken,
  type Role,
  type TokenScope,
} from '@ctf/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Alert, Button, Form, Table } from 'react-bootstrap';
import { QueryError, describeFailure } from '../../../components/QueryError';
import { createApiToken, revokeApiToken, tokensQueryKey, useApiTokens } from '../api/tokens';

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'Never';

/** A local date as YYYY-MM-DD, `days` from today: the range the date field offers. */
function dayFromNow(days = 0): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** What each scope lets a token do, as the form says it. */
const SCOPE_TEXT: Record<TokenScope, string> = {
  read: 'Read: what you can see (challenges, scores, your team)',
  play: 'Play: flags, hints, instances, writeups, ratings and your team',
  author: 'Author: the challenge work your role allows (challenge.yml import and export)',
  admin: 'Admin: the admin calls your role allows',
};

/** A token made to expire on a date works through that whole day, in the user's own time zone. */
const endOfDay = (date: string) => new Date(`${date}T23:59:59`).toISOString();

const isLive = (t: ApiToken) => Date.parse(t.expiresAt) > Date.now();

/**
 * The profile's personal API tokens: create one with its scopes and expiry (shown once, to copy),
 * list them with what each may do, and revoke any. The server decides every limit; its refusal is
 * shown as it says it. Only the scopes the user's role allows are offered.
 */
export function ApiTokens({ role }: { role: Role }) {
  const client = useQueryClient();
  const tokens = useApiTokens();
  const offered = scopesForRole(role);
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState('');
  const [scopes, setScopes] = useState<readonly TokenScope[]>(DEFAULT_TOKEN_SCOPES);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  async function act(work: () => Promise<string | null>) {
    setBusy(true);
    setFailure(null);
    try {
      setFailure(await work());
      await client.invalidateQueries({ queryKey: tokensQueryKey });
    } catch (err) {
      setFailure(describeFailure(err));
    } finally {
      setBusy(false);
    }
  }

  const create = () =>
    act(async () => {
      const chosen = offered.filter((s) => scopes.includes(s));
      const res = await createApiToken(name.trim(), expiry ? endOfDay(expiry) : null, chosen);
      if (!res.ok) return res.message || `The token could not be created (${res.status}).`;
      setCreated({ name: name.trim(), token: res.data.token });
      setCopied(false);
      setName('');
      setExpiry('');
      setScopes(DEFAULT_TOKEN_SCOPES);
      return null;
    });

  const revoke = (token: ApiToken) =>
    act(async () => {
      const res = await revokeApiToken(token._id);
      if (!res.ok) return res.message || `The token could not be revoked (${res.status}).`;
      return null;
    });

  async function copy(token: string) {
    try {
      await navigator.clipboard.writeText(token);
      setCopied(true);
    } catch {
      // The token stays on screen to select by hand (a browser without clipboard access).
      setCopied(false);
      window.alert(UI_TEXT.copyFailed);
    }
  }

  const full = (tokens.data ?? []).filter(isLive).length >= API_TOKEN_LIMITS.perUser;

  return (
    <section aria-labelledby={`${id}-heading`} className="my-4">
      <h2 id={`${id}-heading`} className="h4">
        API tokens
      </h2>
      <p className="text-body-secondary mb-2">
        A token lets a script or a bot use the site as you, with <code>Authorization: Bearer TOKEN</code>.
        Revoke it here when it is no longer needed or may have leaked.
      </p>
      <Form
        className="d-flex flex-wrap align-items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <Form.Group controlId={`${id}-name`}>
          <Form.Label>Token name</Form.Label>
          <Form.Control
            value={name}
            maxLength={API_TOKEN_LIMITS.nameMax}
            onChange={(e) => setName(e.target.value)}
            placeholder="e.g. discord bot"
          />
        </Form.Group>
        <Form.Group controlId={`${id}-expiry`}>
          <Form.Label>Expires (optional)</Form.Label>
          <Form.Control
            type="date"
            value={expiry}
            min={dayFromNow()}
            max={dayFromNow(API_TOKEN_LIMITS.maxLifetimeDays - 1)}
            aria-describedby={`${id}-expiry-help`}
            onChange={(e) => setExpiry(e.target.value)}
          />
        </Form.Group>
        <fieldset className="w-100">
          <legend className="form-label fs-6 mb-1">What the token may do</legend>
          {offered.map((scope) => (
            <Form.Check
              key={scope}
              id={`${id}-scope-${scope}`}
              label={SCOPE_TEXT[scope]}
              checked={scopes.includes(scope)}
              onChange={(e) =>
                setScopes(e.target.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))
              }
            />
          ))}
        </fieldset>
        <Button type="submit" disabled={busy || full || name.trim() === '' || scopes.length === 0}>
          Create token
        </Button>
      </Form>
      <p id={`${id}-expiry-help`} className="form-text mt-1 mb-0">
        Every token expires: {API_TOKEN_LIMITS.defaultLifetimeDays} days from now unless you choose a day, at
        most {API_TOKEN_LIMITS.maxLifetimeDays} days. A token never changes roles, bans, settings, tokens or
        your account: those need you signed in.
      </p>
      {full && (
        <p className="text-body-secondary mt-2 mb-0">
          You have {API_TOKEN_LIMITS.perUser} tokens: revoke one before creating another.
        </p>
      )}
      {failure && (
        <Alert variant="danger" className="mt-2 mb-0" role="alert">
          {failure}
        </Alert>
      )}
      {created && (
        <Alert variant="success" className="mt-3 mb-0" aria-labelledby={`${id}-new`}>
          <p id={`${id}-new`} className="mb-2">
            Your new token <strong>{created.name}</strong>. Copy this token now: it will not be shown again.
          </p>
          <div className="d-flex flex-wrap align-items-center gap-2">
            <code className="text-break user-select-all" data-testid="new-api-token">
              {created.token}
            </code>
            <Button size="sm" variant="success" onClick={() => void copy(created.token)}>
              {copied ? 'Copied!' : 'Copy'}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => setCreated(null)}>
              Done
            </Button>
          </div>
        </Alert>
      )}
      <div className="mt-3">
        {tokens.isPending ? (
          <p role="status">Loading your tokens…</p>
        ) : tokens.isError ? (
          <QueryError what="your API tokens" error={tokens.error} onRetry={() => tokens.refetch()} />
        ) : tokens.data.length === 0 ? (
          <p className="mb-0">No API tokens yet.</p>
        ) : (
          <Table responsive size="sm" className="align-middle mb-0">
            <caption className="visually-hidden">Your API tokens</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((t) => (
                <tr key={t._id}>
                  <th scope="row" className="fw-normal text-break">
                    {t.name}
                    {!isLive(t) && <span className="badge text-bg-secondary ms-2">Expired</span>}
                  </th>
                  <td>{t.scopes.join(', ')}</td>
                  <td>{when(t.createdAt)}</td>
                  <td>{when(t.expiresAt)}</td>
                  <td>{when(t.lastUsedAt)}</td>
                  <td className="text-end">
                    <Button
                      size="sm"
                      variant="outline-danger"
                      disabled={busy}
                      aria-label={`Revoke ${t.name}`}
                      onClick={() => {
                        if (
                          window.confirm(
                            `Revoke the token '${t.name}'? Whatever uses it stops working at once.`,
                          )
                        )
                          void revoke(t);
                      }}
                    >
                      Revoke
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </div>
    </section>
  );
}
