import { REGISTRATION_MESSAGES } from '@ctf/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
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
    mockApi({
      'GET /api/info/site': () =>
        json({
          ...SITE,
          login: { ...SITE.login, local: true },
          loginMethods: ['discord', 'github', 'local'],
        }),
    });
    renderAt(<LoginPage />, '/login');
    // The local sign-in form shows once the site info has arrived.
    expect(await screen.findByLabelText('Sign in as an administrator')).toBeInTheDocument();
    expect(screen.queryByTestId('first-admin-help')).toBeNull();
  });
});

describe('Login page: the sign-in methods the server has', () => {
  it('offers a button for each configured provider only', async () => {
    mockApi({
      'GET /api/info/site': () =>
        json({ ...SITE, login: { discord: false, github: true, local: false }, loginMethods: ['github'] }),
    });
    renderAt(<LoginPage />, '/login');
    expect(await screen.findByRole('button', { name: 'Login with GitHub' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Login with Discord' })).toBeNull();
    expect(screen.queryByTestId('no-sign-in')).toBeNull();
    expect(screen.queryByText('Local trial sign-in')).toBeNull();
  });

  it('offers both when both are configured', async () => {
    mockApi({
      'GET /api/info/site': () =>
        json({
          ...SITE,
          login: { discord: true, github: true, local: false },
          loginMethods: ['discord', 'github'],
        }),
    });
    renderAt(<LoginPage />, '/login');
    expect(await screen.findByRole('button', { name: 'Login with Discord' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Login with GitHub' })).toBeInTheDocument();
  });

  it('on a local trial offers the name sign-in and no provider button', async () => {
    mockApi({
      'GET /api/info/site': () =>
        json({ ...SITE, login: { discord: false, github: false, local: true }, loginMethods: ['local'] }),
    });
    renderAt(<LoginPage />, '/login');
    expect(await screen.findByText('Local trial sign-in')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Login with/ })).toBeNull();
    expect(screen.queryByTestId('no-sign-in')).toBeNull();
  });

  it('a deployed site with none says so and points to the docs', async () => {
    mockApi({
      'GET /api/info/site': () =>
        json({ ...SITE, login: { discord: false, github: false, local: false }, loginMethods: [] }),
    });
    renderAt(<LoginPage />, '/login');
    const help = await screen.findByTestId('no-sign-in');
    expect(help).toHaveTextContent('Sign-in is not set up yet');
    expect(help).toHaveTextContent(`${window.location.origin}/api/auth/github/callback`);
    expect(help).toHaveTextContent('README.md');
    expect(help).toHaveTextContent('docs/deploy.md');
    expect(screen.queryByRole('button', { name: /^Login with/ })).toBeNull();
  });

  it('shows no button before it knows, and a retry when the site info fails', async () => {
    mockApi({ 'GET /api/info/site': () => json({ message: 'down' }, 503) });
    renderAt(<LoginPage />, '/login');
    expect(await screen.findByTestId('query-error')).toHaveTextContent(
      'The sign-in options could not be loaded.',
    );
    expect(screen.queryByRole('button', { name: /^Login with/ })).toBeNull();
  });
});

describe("Login page: the ways in, in the admin's order", () => {
  it("shows single sign-on with the club's label, in the order the server gives", async () => {
    mockApi({
      'GET /api/info/site': () =>
        json({ ...SITE, loginMethods: ['oidc', 'github'], oidcLabel: 'University login' }),
    });
    renderAt(<LoginPage />, '/login');
    await screen.findByRole('button', { name: 'University login' });
    const names = screen.getAllByRole('button').map((b) => b.textContent);
    expect(names).toEqual(['University login', 'Login with GitHub']);
  });
});

describe('Login page: a registration code', () => {
  it('asks for the code when a new account needs one, and sends it once', async () => {
    const api = mockApi({
      'GET /api/info/site': () => json({ ...SITE, loginMethods: ['github'] }),
      'POST /api/auth/registration-code': () =>
        json({ message: 'Code accepted. Sign in again to create your account.' }),
    });
    const open = vi.spyOn(window, 'open').mockReturnValue({} as Window);
    renderAt(<LoginPage />, '/login');
    await userEvent.click(await screen.findByRole('button', { name: 'Login with GitHub' }));
    expect(open).toHaveBeenCalledWith('/api/auth/github', 'login-github', expect.any(String));
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { type: 'OAUTH_ERROR', message: REGISTRATION_MESSAGES.code },
        origin: window.location.origin,
      }),
    );
    await userEvent.type(await screen.findByLabelText('Registration code'), 'owls-2026');
    await userEvent.click(screen.getByRole('button', { name: 'Send the code' }));
    expect(
      await screen.findByText('Code accepted. Sign in again to create your account.'),
    ).toBeInTheDocument();
    expect(api.bodyOf('POST /api/auth/registration-code')).toEqual({ code: 'owls-2026' });
    expect(screen.queryByTestId('registration-code')).toBeNull();
    open.mockRestore();
  });
});

describe('Login page: e-mail and password', () => {
  it('places the e-mail form where the admin put it, and signs in with it', async () => {
    const api = mockApi({
      'GET /api/info/site': () => json({ ...SITE, loginMethods: ['email', 'github'] }),
      'POST /api/auth/login': () => json({ message: 'Wrong e-mail or password.' }, 401),
    });
    renderAt(<LoginPage />, '/login?confirmed=1');
    expect(await screen.findByTestId('confirmed')).toHaveTextContent('Your e-mail address is confirmed');
    const form = await screen.findByTestId('email-sign-in');
    const github = screen.getByRole('button', { name: 'Login with GitHub' });
    // The e-mail form comes first in the page, as in the admin's order.
    expect(form.compareDocumentPosition(github) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await userEvent.type(screen.getByLabelText('E-mail address'), 'ada@uni.example');
    await userEvent.type(screen.getByLabelText('Password'), 'not the password');
    await userEvent.click(screen.getAllByRole('button', { name: 'Sign in' }).at(-1)!);
    expect(await screen.findByText('Wrong e-mail or password.')).toBeInTheDocument();
    expect(api.bodyOf('POST /api/auth/login')).toEqual({
      email: 'ada@uni.example',
      password: 'not the password',
    });
  });

  it('signs up and says to check the mail', async () => {
    const api = mockApi({
      'GET /api/info/site': () => json({ ...SITE, loginMethods: ['email'] }),
      'POST /api/auth/register': () => json({ message: 'Check your e-mail to confirm your account.' }),
    });
    renderAt(<LoginPage />, '/login');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign up' }));
    await userEvent.type(screen.getByLabelText('Username'), 'ada');
    await userEvent.type(screen.getByLabelText('E-mail address'), 'ada@uni.example');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse battery');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Check your e-mail to confirm your account.')).toBeInTheDocument();
    expect(api.bodyOf('POST /api/auth/register')).toEqual({
      username: 'ada',
      email: 'ada@uni.example',
      password: 'correct horse battery',
    });
  });
});
