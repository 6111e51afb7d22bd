import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MESSAGES, adminApi } from '@ctf/contract';
import { describe, expect, it } from 'vitest';
import { SETUP, SITE, baseRoutes, json, mockApi, renderPage } from '../testing';
import { AdminPanel } from './AdminPanel';

const checklist = () => screen.getByTestId('setup-checklist');

describe('Set-up checklist at the top of the admin panel', () => {
  it('is shown on a site without challenges: dates, sign-in with its redirect URLs, webhook', async () => {
    mockApi(
      baseRoutes({
        'GET /api/admin/setup': () => json({ ...SETUP, challenges: 0 }),
        'GET /api/info/site': () =>
          json({
            ...SITE,
            name: 'Spring CTF',
            eventStart: '2026-03-02T10:00:00Z',
            eventEnd: '2026-03-09T10:00:00Z',
          }),
        'GET /api/admin/settings': () => json({ ...SITE, autoOpen: true, autoClose: true, logoUrl: null }),
      }),
    );
    renderPage(<AdminPanel />);
    expect(await screen.findByRole('heading', { name: 'Set up your event' })).toBeInTheDocument();
    const list = checklist();
    expect(await within(list).findByTestId('setup-dates')).toHaveTextContent('“Spring CTF” runs from');
    await waitFor(() =>
      expect(within(list).getByTestId('setup-dates')).toHaveTextContent(
        'Play opens by itself at the start and closes at the end.',
      ),
    );
    const github = within(list).getByTestId('setup-provider-github');
    expect(github).toHaveTextContent('GitHub: configured.');
    expect(github).toHaveTextContent('http://localhost:3000/api/auth/github/callback');
    const discord = within(list).getByTestId('setup-provider-discord');
    expect(discord).toHaveTextContent('Discord: not configured.');
    expect(discord).toHaveTextContent('http://localhost:3000/api/auth/discord/callback');
    expect(discord).toHaveTextContent('DISCORD_CLIENT_ID');
    expect(list).toHaveTextContent('README.md');
    expect(list).toHaveTextContent('DISCORD_WEBHOOK_URL');
    // It comes before the site's own controls.
    const toggle = screen.getByRole('button', { name: 'Site Inactive' });
    expect(list.compareDocumentPosition(toggle) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('is not shown once the site has challenges', async () => {
    mockApi(baseRoutes());
    renderPage(<AdminPanel />);
    expect(await screen.findByRole('cell', { name: 'alice' })).toBeInTheDocument();
    expect(screen.queryByTestId('setup-checklist')).toBeNull();
  });

  it('adds the sample challenges, then says how many the site has and stays for the visit', async () => {
    let challenges = 0;
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/setup': () => json({ ...SETUP, challenges }),
        'POST /api/admin/sample_challenges': () => {
          challenges = 3;
          return json({
            acknowledge: true,
            message: 'Imported: 3 created, 0 updated.',
            created: ['Caesar Salad', 'First Steps', 'Regex Club'],
            updated: [],
            warnings: [],
            errors: [],
          });
        },
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add the sample challenges' }));
    expect(api.bodyOf('POST /api/admin/sample_challenges')).toEqual({});
    expect(
      await within(checklist()).findByText('The site has 3 challenges: see View Challenges.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('admin-message')).toHaveTextContent('Imported: 3 created, 0 updated.');
    expect(screen.queryByRole('button', { name: 'Add the sample challenges' })).toBeNull();
  });

  it('shows a refusal of the samples in the message area', async () => {
    mockApi(
      baseRoutes({
        'GET /api/admin/setup': () => json({ ...SETUP, challenges: 0 }),
        'POST /api/admin/sample_challenges': () =>
          json(
            {
              acknowledge: false,
              message: 'The sample challenges can only be added to a site without challenges.',
              code: 'conflict',
            },
            409,
          ),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add the sample challenges' }));
    await waitFor(() =>
      expect(screen.getByTestId('admin-message')).toHaveTextContent(
        'The sample challenges can only be added to a site without challenges.',
      ),
    );
  });

  it('opens the site, and its dates button opens the Settings tab', async () => {
    let active = false;
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/setup': () => json({ ...SETUP, challenges: 0 }),
        'GET /api/admin/get_site_info': () => json({ activated: active }),
        'POST /api/admin/update_site_info': (body) => {
          active = (body as { activated: boolean }).activated;
          return json({ acknowledge: true, message: 'The site is now active.' });
        },
        'GET /api/admin/settings': () => json({ ...SITE, logoUrl: null }),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(await screen.findByRole('button', { name: 'Open the site' }));
    expect(api.bodyOf('POST /api/admin/update_site_info')).toEqual({ activated: true });
    expect(
      await within(checklist()).findByText(
        'The site is open: players see the challenges and can submit flags.',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Site Active' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Change the name and dates in Settings' }));
    expect(screen.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
  });

  it('shows why the sample challenges were refused, on the page', async () => {
    const errors = [{ file: 'first-steps/challenge.yml', line: 2, message: MESSAGES.createDisabled }];
    mockApi(
      baseRoutes({
        'GET /api/admin/setup': () => json({ ...SETUP, challenges: 0 }),
        'POST /api/admin/sample_challenges': () =>
          json(
            {
              acknowledge: false,
              message: adminApi.importRefusedText(errors),
              created: [],
              updated: [],
              warnings: [],
              errors,
            },
            400,
          ),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add the sample challenges' }));
    expect(
      await screen.findByText(
        `Nothing was imported: 1 error. first-steps/challenge.yml, line 2: ${MESSAGES.createDisabled}`,
      ),
    ).toBeInTheDocument();
  });

  it('hides when asked', async () => {
    mockApi(baseRoutes({ 'GET /api/admin/setup': () => json({ ...SETUP, challenges: 0 }) }));
    renderPage(<AdminPanel />);
    await userEvent.click(await screen.findByRole('button', { name: 'Hide this checklist' }));
    expect(screen.queryByTestId('setup-checklist')).toBeNull();
  });
});
