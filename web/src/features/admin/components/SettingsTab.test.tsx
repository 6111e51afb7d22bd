import type { AdminSettings } from '@ctf/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fromLocalInput, toLocalInput } from '../api/settings';
import { SITE, baseRoutes, json, mockApi, renderPage } from '../testing';
import { AdminPanel } from './AdminPanel';

const SETTINGS: AdminSettings = {
  name: 'Capture The Flag',
  tagline: 'A week-long security competition for students of all skill levels.',
  eventStart: '2025-10-15T01:00:00.000Z',
  eventEnd: '2025-10-22T01:00:00.000Z',
  aboutMd: 'About us',
  rulesMd: '- Be nice',
  faqMd: '### Why?\n\nBecause.',
  prizeText: '$1000',
  communityUrl: 'https://discord.com/',
  toolsUrl: 'https://example.org/',
  challengeHost: 'challenges.example.org',
  challengePort: 2530,
  accent: '#0d6efd',
  afterEnd: 'open',
  autoOpen: false,
  autoClose: false,
  allowCreateDuringEvent: false,
  submissionRetentionDays: 90,
  instancesPerTeam: 3,
  writeups: { open: false, deadline: null, note: '' },
  registration: { open: true, allowedEmailDomains: [], code: null },
  loginMethods: ['discord', 'github', 'oidc', 'email', 'local'],
  logoUrl: null,
};

async function openSettings() {
  await userEvent.click(screen.getByRole('tab', { name: 'Settings' }));
  return screen.findByRole('form', { name: 'Event settings' });
}

describe('Settings tab', () => {
  it('converts between the admin’s time zone and UTC both ways', () => {
    const local = toLocalInput('2025-10-15T01:00:00.000Z');
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(fromLocalInput(local)).toBe('2025-10-15T01:00:00.000Z');
    expect(fromLocalInput('')).toBeNull();
  });

  it('saves each section by itself: only its settings that changed, dates in UTC, and shows the server’s answer', async () => {
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/settings': () => json(SETTINGS),
        'POST /api/admin/settings': () =>
          json({
            acknowledge: true,
            message: 'Settings saved.',
            settings: { ...SETTINGS, name: 'Spring CTF' },
          }),
      }),
    );
    renderPage(<AdminPanel />);
    await openSettings();
    const name = screen.getByLabelText('Event name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Spring CTF');
    const end = screen.getByLabelText(/^End \(/);
    await userEvent.clear(end);
    await userEvent.type(end, toLocalInput('2025-10-23T01:00:00.000Z'));
    await userEvent.selectOptions(screen.getByLabelText('After the end time'), 'practice');
    await userEvent.click(screen.getByLabelText('Switch the site on at the start time'));
    await userEvent.click(screen.getByLabelText('Allow creating challenges during the event'));
    // Another section's field is not on this page.
    expect(screen.queryByLabelText('Keep wrong attempts (days)')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(api.count('POST /api/admin/settings')).toBe(1));
    expect(api.bodyOf('POST /api/admin/settings')).toEqual({
      name: 'Spring CTF',
      eventEnd: '2025-10-23T01:00:00.000Z',
      afterEnd: 'practice',
      autoOpen: true,
      allowCreateDuringEvent: true,
    });
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: 'Integrity' }));
    const form = await screen.findByRole('form', { name: 'Integrity settings' });
    const retention = within(form).getByLabelText('Keep wrong attempts (days)');
    expect(retention).toHaveValue(90);
    await userEvent.clear(retention);
    await userEvent.type(retention, '30');
    await userEvent.click(within(form).getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(api.count('POST /api/admin/settings')).toBe(2));
    expect(api.bodyOf('POST /api/admin/settings')).toEqual({ submissionRetentionDays: 30 });
  });

  it('opens the section its address names, and names each section as a link', async () => {
    mockApi(baseRoutes({ 'GET /api/admin/settings': () => json(SETTINGS) }));
    renderPage(<AdminPanel />, '/admin/panel?tab=settings&section=writeups');
    const form = await screen.findByRole('form', { name: 'Writeups settings' });
    expect(within(form).getByLabelText(/^Collect writeups/)).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Settings sections' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Event', 'Branding', 'Texts', 'Play', 'Writeups', 'Sign-in', 'Integrity']);
    expect(within(nav).getByRole('link', { name: 'Texts' })).toHaveAttribute(
      'href',
      '?tab=settings&section=texts',
    );
    expect(within(nav).getByRole('link', { name: 'Writeups' })).toHaveAttribute('aria-current', 'page');
  });

  it('shows a refused value’s message, which names the field', async () => {
    mockApi(
      baseRoutes({
        'GET /api/admin/settings': () => json(SETTINGS),
        'POST /api/admin/settings': () =>
          json({ acknowledge: false, message: 'Invalid communityUrl: must be an absolute http(s) URL' }, 400),
        'GET /api/info/site': () => json(SITE),
      }),
    );
    renderPage(<AdminPanel />, '/admin/panel?tab=settings&section=play');
    await screen.findByRole('form', { name: 'Play settings' });
    const link = screen.getByLabelText('Community link');
    await userEvent.clear(link);
    await userEvent.type(link, 'https://chat.example.org/');
    await userEvent.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText(/Invalid communityUrl/)).toBeInTheDocument();
  });

  it('orders the ways in and sets who may register', async () => {
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/settings': () => json(SETTINGS),
        'POST /api/admin/settings': () =>
          json({ acknowledge: true, message: 'Settings saved.', settings: SETTINGS }),
      }),
    );
    renderPage(<AdminPanel />, '/admin/panel?tab=settings&section=signin');
    await screen.findByRole('form', { name: 'Sign-in settings' });
    await userEvent.click(screen.getByRole('button', { name: 'Move Single sign-on (OpenID Connect) up' }));
    await userEvent.click(screen.getByRole('button', { name: 'Move Single sign-on (OpenID Connect) up' }));
    await userEvent.click(screen.getByLabelText(/^Registration open/));
    await userEvent.type(
      screen.getByLabelText('Allowed e-mail domains for new accounts (empty: any)'),
      'Uni.example, @student.uni.example',
    );
    await userEvent.type(screen.getByLabelText('Registration code (empty: none)'), 'owls-2026');
    await userEvent.click(screen.getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(api.count('POST /api/admin/settings')).toBe(1));
    expect(api.bodyOf('POST /api/admin/settings')).toEqual({
      loginMethods: ['oidc', 'discord', 'github', 'email', 'local'],
      registration: {
        open: false,
        allowedEmailDomains: ['uni.example', 'student.uni.example'],
        code: 'owls-2026',
      },
    });
  });
});
