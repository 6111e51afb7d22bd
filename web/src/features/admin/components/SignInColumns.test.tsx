import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { baseRoutes, json, mockApi, renderPage } from '../testing';
import { AdminPanel } from './AdminPanel';

describe('Users tab: ways in', () => {
  it("shows each user's ways in and confirmation, resends a confirmation, and blocks an address", async () => {
    const api = mockApi(
      baseRoutes({
        'POST /api/admin/users/resend-confirmation': () =>
          json({ acknowledge: true, message: 'A new confirmation link is on its way.' }),
        'POST /api/admin/blocked-emails': () =>
          json({ acknowledge: true, message: 'x@uni.example is blocked.' }),
      }),
    );
    renderPage(<AdminPanel />);
    expect(await screen.findByText('e-mail not confirmed')).toBeInTheDocument();
    expect(screen.getByText('GitHub')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Resend the confirmation: bob' }));
    await waitFor(() =>
      expect(api.bodyOf('POST /api/admin/users/resend-confirmation')).toEqual({ user_id: '3' }),
    );
    expect(await screen.findByText('A new confirmation link is on its way.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Address to block'), 'x@uni.example');
    await userEvent.click(screen.getByRole('button', { name: 'Block' }));
    await waitFor(() =>
      expect(api.bodyOf('POST /api/admin/blocked-emails')).toEqual({ email: 'x@uni.example', blocked: true }),
    );
  });
});
