import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../../test/api-mock';
import { SITE } from '../../../test/factories';
import { renderAt } from '../../../test/render';
import { SignInMethods } from './SignInMethods';

describe('Profile: ways to sign in', () => {
  it('lists the ways in, links another in its popup, adds an address, and never unlinks the last', async () => {
    let list = [{ provider: 'github', name: 'ada-gh', linkedAt: '2026-01-10T12:00:00.000Z' }];
    const api = mockApi({
      'GET /api/info/site': () =>
        json({ ...SITE, loginMethods: ['github', 'oidc', 'email'], oidcLabel: 'University login' }),
      'GET /api/user/identities': () => json(list),
      'POST /api/user/identities/email': () =>
        json({ message: 'Check your e-mail to confirm the address; then you can sign in with it.' }),
      'POST /api/user/identities/unlink': () => json({ message: 'Unlinked.' }),
    });
    const open = vi.spyOn(window, 'open').mockReturnValue({} as Window);
    renderAt(<SignInMethods />, '/profile');
    expect(await screen.findByText('ada-gh')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unlink GitHub' })).toBeDisabled();
    await userEvent.click(await screen.findByRole('button', { name: 'Link University login' }));
    expect(open).toHaveBeenCalledWith('/api/auth/oidc?link=1', 'login-oidc', expect.any(String));
    await userEvent.type(screen.getByLabelText('E-mail address'), 'ada@mail.example');
    await userEvent.type(screen.getByLabelText('New password'), 'a long pass phrase');
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText(/Check your e-mail to confirm the address/)).toBeInTheDocument();
    expect(api.bodyOf('POST /api/user/identities/email')).toEqual({
      email: 'ada@mail.example',
      password: 'a long pass phrase',
    });
    list = [...list, { provider: 'oidc', name: 'ada.l', linkedAt: '2026-01-11T12:00:00.000Z' }];
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { type: 'OAUTH_SUCCESS', message: 'Linked: you can now sign in this way too.' },
        origin: window.location.origin,
      }),
    );
    expect(await screen.findByText('ada.l')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Unlink GitHub' }));
    await waitFor(() =>
      expect(api.bodyOf('POST /api/user/identities/unlink')).toEqual({ provider: 'github' }),
    );
    open.mockRestore();
  });
});
