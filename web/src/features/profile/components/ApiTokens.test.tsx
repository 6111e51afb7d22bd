import { API_TOKEN_LIMITS, type ApiToken, type Role } from '@ctf/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../../test/api-mock';
import { SITE, makeUser } from '../../../test/factories';
import { renderAt } from '../../../test/render';
import { ProfileView } from './ProfileView';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const TOKEN = `ctf_${'a'.repeat(43)}`;
const token = (id: number, over: Partial<ApiToken> = {}): ApiToken => ({
  _id: String(id),
  name: `token ${id}`,
  createdAt: '2025-10-15T02:00:00Z',
  expiresAt: '2099-01-01T00:00:00Z',
  scopes: ['read', 'play'],
  lastUsedAt: null,
  ...over,
});

describe('API tokens (profile)', { timeout: 20_000 }, () => {
  function profileWith(routes: Parameters<typeof mockApi>[0], role: Role = 'player') {
    const api = mockApi({
      'GET /api/user/info': () => json(makeUser({ role })),
      'GET /api/info/site': () => json(SITE),
      'GET /api/user/identities': () => json([]),
      ...routes,
    });
    renderAt(<ProfileView />, '/profile');
    return api;
  }

  it('says when there is none, creates one and shows it once, to copy', async () => {
    const user = userEvent.setup();
    let list: ApiToken[] = [];
    const api = profileWith({
      'GET /api/user/tokens': () => json(list),
      'POST /api/user/tokens': (body) => {
        list = [token(7, { name: (body as { name: string }).name })];
        return json({ _id: '7', token: TOKEN });
      },
    });
    expect(await screen.findByText('No API tokens yet.')).toBeInTheDocument();
    const create = screen.getByRole('button', { name: 'Create token' });
    expect(create).toBeDisabled();
    const nameField = screen.getByLabelText('Token name');
    expect(nameField).toHaveAttribute('maxLength', String(API_TOKEN_LIMITS.nameMax));
    await user.type(nameField, ' discord bot ');
    await user.click(create);
    expect(await screen.findByText(/Copy this token now: it will not be shown again\./)).toBeInTheDocument();
    expect(screen.getByTestId('new-api-token')).toHaveTextContent(TOKEN);
    expect(api.bodyOf('POST /api/user/tokens')).toEqual({ name: 'discord bot', scopes: ['read', 'play'] });
    // The list is asked again and names the new token, never showing the token in it.
    const table = await screen.findByRole('table', { name: 'Your API tokens' });
    expect(within(table).getByRole('rowheader', { name: 'discord bot' })).toBeInTheDocument();
    expect(table).not.toHaveTextContent(TOKEN);
    expect(within(table).getAllByText('Never')).toHaveLength(1);
    expect(within(table).getByText('read, play')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe(TOKEN);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByText(TOKEN)).toBeNull();
    expect(nameField).toHaveValue('');
  });

  it('sends an expiry as the end of the chosen day', async () => {
    const api = profileWith({
      'GET /api/user/tokens': () => json([]),
      'POST /api/user/tokens': () => json({ _id: '1', token: TOKEN }),
    });
    await userEvent.type(await screen.findByLabelText('Token name'), 'ci');
    // A day within the year a token may live (the field offers no later one).
    const d = new Date();
    d.setDate(d.getDate() + 30);
    const day = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    await userEvent.type(screen.getByLabelText('Expires (optional)'), day);
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }));
    await screen.findByTestId('new-api-token');
    expect(api.bodyOf('POST /api/user/tokens')).toEqual({
      name: 'ci',
      expiresAt: new Date(`${day}T23:59:59`).toISOString(),
      scopes: ['read', 'play'],
    });
  });

  it('offers only the scopes the role allows, and sends the ones chosen', async () => {
    const api = profileWith({
      'GET /api/user/tokens': () => json([]),
      'POST /api/user/tokens': () => json({ _id: '1', token: TOKEN }),
    });
    await screen.findByText('No API tokens yet.');
    const scopes = screen.getByRole('group', { name: 'What the token may do' });
    expect(within(scopes).getAllByRole('checkbox')).toHaveLength(2);
    expect(within(scopes).queryByLabelText(/^Admin/)).toBeNull();
    await userEvent.type(screen.getByLabelText('Token name'), 'reader');
    await userEvent.click(within(scopes).getByLabelText(/^Play/));
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }));
    await screen.findByTestId('new-api-token');
    expect(api.bodyOf('POST /api/user/tokens')).toEqual({ name: 'reader', scopes: ['read'] });
    // With no scope left, nothing can be created.
    await userEvent.type(screen.getByLabelText('Token name'), 'nothing');
    await userEvent.click(within(scopes).getByLabelText(/^Read/));
    await userEvent.click(within(scopes).getByLabelText(/^Play/));
    expect(screen.getByRole('button', { name: 'Create token' })).toBeDisabled();
  });

  it('offers an admin every scope', async () => {
    profileWith({ 'GET /api/user/tokens': () => json([]) }, 'admin');
    await screen.findByText('No API tokens yet.');
    const scopes = screen.getByRole('group', { name: 'What the token may do' });
    expect(
      within(scopes)
        .getAllByRole('checkbox')
        .map((c) => (c as HTMLInputElement).checked),
    ).toEqual([true, true, false, false]);
    expect(within(scopes).getByLabelText(/^Admin/)).toBeInTheDocument();
  });

  it('revokes a token after asking, and shows the server’s refusal as it says it', async () => {
    let list = [token(1, { name: 'bot', lastUsedAt: '2025-10-16T02:00:00Z' }), token(2, { name: 'ci' })];
    const api = profileWith({
      'GET /api/user/tokens': () => json(list),
      'POST /api/user/tokens/delete': (body) => {
        const id = (body as { token_id: string }).token_id;
        if (id === '2') return json({ message: 'Token not found', code: 'not_found' }, 404);
        list = list.filter((t) => t._id !== id);
        return json({ message: 'Token revoked' });
      },
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValue(true);
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke bot' }));
    expect(confirm).toHaveBeenCalledWith("Revoke the token 'bot'? Whatever uses it stops working at once.");
    expect(api.count('POST /api/user/tokens/delete')).toBe(0);
    await userEvent.click(screen.getByRole('button', { name: 'Revoke bot' }));
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: 'bot' })).toBeNull());
    expect(api.bodyOf('POST /api/user/tokens/delete')).toEqual({ token_id: '1' });
    await userEvent.click(screen.getByRole('button', { name: 'Revoke ci' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Token not found');
  });

  it('says to revoke one first once the user has as many live tokens as allowed', async () => {
    const live = Array.from({ length: API_TOKEN_LIMITS.perUser }, (_, i) => token(i + 1));
    profileWith({ 'GET /api/user/tokens': () => json(live) });
    expect(
      await screen.findByText(
        `You have ${API_TOKEN_LIMITS.perUser} tokens: revoke one before creating another.`,
      ),
    ).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Token name'), 'one more');
    expect(screen.getByRole('button', { name: 'Create token' })).toBeDisabled();
  });
});
