import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { parseDomains } from '../api/divisions';
import { SITE, baseRoutes, json, mockApi, renderPage } from '../testing';
import { AdminPanel } from './AdminPanel';

const SETTINGS = {
  ...SITE,
  aboutMd: '',
  rulesMd: '',
  faqMd: '',
  autoOpen: false,
  autoClose: false,
  allowCreateDuringEvent: false,
};

async function openDivisions() {
  await userEvent.click(screen.getByRole('tab', { name: 'Settings' }));
  // The divisions are in the Play section of the Settings tab.
  await userEvent.click(await screen.findByRole('link', { name: 'Play' }));
  return screen.findByRole('form', { name: 'Divisions' });
}

describe('Divisions editor (Settings tab, Play section)', { timeout: 20_000 }, () => {
  it('reads domains typed with commas, spaces or new lines', () => {
    expect(parseDomains(' uni.example, students.uni.example\nother.example ;; ')).toEqual([
      'uni.example',
      'students.uni.example',
      'other.example',
    ]);
    expect(parseDomains('   ')).toEqual([]);
  });

  it('shows the divisions, edits, adds and removes them, and saves the whole list', async () => {
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/settings': () => json(SETTINGS),
        'GET /api/admin/divisions': () =>
          json({
            divisions: [
              { name: 'First-years', emailDomains: ['uni.example'] },
              { name: 'Alumni', emailDomains: [] },
            ],
          }),
        'POST /api/admin/divisions': (body) =>
          json({ acknowledge: true, message: 'Divisions saved.', ...(body as object) }),
      }),
    );
    renderPage(<AdminPanel />);
    const form = await openDivisions();
    expect(await within(form).findByLabelText('Division 1 name')).toHaveValue('First-years');
    expect(within(form).getByLabelText('Division 1 e-mail domains')).toHaveValue('uni.example');
    await userEvent.type(within(form).getByLabelText('Division 1 e-mail domains'), ', students.uni.example');
    await userEvent.click(within(form).getByRole('button', { name: 'Remove division 2' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Add Division' }));
    await userEvent.type(within(form).getByLabelText('Division 2 name'), 'Open');
    await userEvent.click(within(form).getByRole('button', { name: 'Save Divisions' }));
    await waitFor(() => expect(api.count('POST /api/admin/divisions')).toBe(1));
    expect(api.bodyOf('POST /api/admin/divisions')).toEqual({
      divisions: [
        { name: 'First-years', emailDomains: ['uni.example', 'students.uni.example'] },
        { name: 'Open', emailDomains: [] },
      ],
    });
    expect(await screen.findByText('Divisions saved.')).toBeInTheDocument();
  });

  it('says when there are none, and shows a refusal that names the field', async () => {
    mockApi(
      baseRoutes({
        'GET /api/admin/settings': () => json(SETTINGS),
        'POST /api/admin/divisions': () =>
          json(
            {
              acknowledge: false,
              message: 'Invalid divisions.0.emailDomains.0: must be a domain such as example.org',
            },
            400,
          ),
      }),
    );
    renderPage(<AdminPanel />);
    const form = await openDivisions();
    expect(within(form).getByText('No divisions: everyone competes on one leaderboard.')).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('button', { name: 'Add Division' }));
    await userEvent.type(within(form).getByLabelText('Division 1 name'), 'Open');
    await userEvent.type(within(form).getByLabelText('Division 1 e-mail domains'), 'not_a_domain!');
    await userEvent.click(within(form).getByRole('button', { name: 'Save Divisions' }));
    expect(await screen.findByText(/Invalid divisions\.0\.emailDomains\.0/)).toBeInTheDocument();
  });
});
