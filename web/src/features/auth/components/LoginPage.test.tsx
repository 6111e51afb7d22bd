import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockApi } from '../../../test/api-mock';
import { SITE } from '../../../test/factories';
import { renderAt } from '../../../test/render';
import { LoginPage } from './LoginPage';

describe('Login page on a fresh site', () => {
  it('tells how to become the first admin while there is none', async () => {
    mockApi({ 'GET /api/info/site': () => json({ ...SITE, firstAdminNeeded: true }) });
    renderAt(<LoginPage />, '/login');
    const help = await screen.findByTestId('first-admin-help');
    expect(help).toHaveTextContent('This site has no admin yet');
    expect(help).toHaveTextContent('ADMINS');
  });

  it('says nothing of it once the site has an admin', async () => {
    mockApi({ 'GET /api/info/site': () => json({ ...SITE, login: { ...SITE.login, local: true } }) });
    renderAt(<LoginPage />, '/login');
    // The local sign-in form shows once the site info has arrived.
    expect(await screen.findByLabelText('Sign in as an administrator')).toBeInTheDocument();
    expect(screen.queryByTestId('first-admin-help')).toBeNull();
  });
});
