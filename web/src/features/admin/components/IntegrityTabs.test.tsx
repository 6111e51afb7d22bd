import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { baseRoutes, json, makeUser, mockApi, renderPage } from '../testing';
import { AdminPanel } from './AdminPanel';

const entry = (id: number, action = 'challenge.update', admin = 'boss') => ({
  _id: String(id),
  time: '2026-01-10T12:00:00.000Z',
  admin,
  action,
  target: `challenge 'Web ${id}' (#${id})`,
  details: { before: { flag: '[redacted]' }, after: { flag: '[redacted]' } },
});

describe('Audit tab', () => {
  it('lists entries newest first, filters by admin and action, and pages with the cursor', async () => {
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/audit': () => json({ rows: [entry(3), entry(2)], next_cursor: '2' }),
        'GET /api/admin/audit?cursor=2': () => json({ rows: [entry(1)], next_cursor: null }),
        'GET /api/admin/audit?admin=deputy&action=site.switch': () =>
          json({ rows: [entry(9, 'site.switch', 'deputy')], next_cursor: null }),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'Audit' }));
    const table = await screen.findByRole('table', { name: 'Audit log' });
    expect(within(table).getByText("challenge 'Web 3' (#3)")).toBeInTheDocument();
    expect(within(table).getAllByText(/\[redacted\]/)).toHaveLength(2);

    await userEvent.click(screen.getByRole('button', { name: /next/i }));
    expect(await screen.findByText("challenge 'Web 1' (#1)")).toBeInTheDocument();
    expect(api.count('GET /api/admin/audit?cursor=2')).toBe(1);

    const form = screen.getByRole('form', { name: 'Audit filters' });
    await userEvent.type(within(form).getByLabelText('Admin'), 'deputy');
    await userEvent.selectOptions(within(form).getByLabelText('Action'), 'site.switch');
    await userEvent.click(within(form).getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText("challenge 'Web 9' (#9)")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText("challenge 'Web 1' (#1)")).toBeNull());
  });

  it('says when nothing was recorded', async () => {
    mockApi(baseRoutes({ 'GET /api/admin/audit': () => json({ rows: [], next_cursor: null }) }));
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'Audit' }));
    expect(await screen.findByText('No admin action recorded.')).toBeInTheDocument();
  });
});

describe('hide and ban in the Users and Teams tabs', () => {
  it('shows the status and sends hide with the reason asked, and unban without one', async () => {
    const prompt = vi.spyOn(window, 'prompt').mockReturnValue('flag sharing');
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/get_users': () =>
          json([
            {
              ...makeUser({ _id: '2', username: 'alice' }),
              hidden: false,
              banned: false,
              moderation_reason: null,
            },
            {
              ...makeUser({ _id: '3', username: 'bob' }),
              hidden: false,
              banned: true,
              moderation_reason: 'abuse',
            },
          ]),
        'POST /api/admin/moderate': () => json({ acknowledge: true, message: "User 'alice' is hidden." }),
      }),
    );
    renderPage(<AdminPanel />);
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(within(table).getByText('Banned')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Hide user alice' }));
    expect(prompt).toHaveBeenCalledWith('Reason to hide user alice:');
    expect(api.bodyOf('POST /api/admin/moderate')).toEqual({
      target: 'user',
      name: 'alice',
      action: 'hide',
      reason: 'flag sharing',
    });
    expect(await screen.findByText(/User 'alice' is hidden\./)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Unban user bob' }));
    expect(api.bodyOf('POST /api/admin/moderate')).toEqual({
      target: 'user',
      name: 'bob',
      action: 'unban',
      reason: '',
    });
    prompt.mockRestore();
  });

  it('sends nothing when the reason prompt is cancelled', async () => {
    const prompt = vi.spyOn(window, 'prompt').mockReturnValue(null);
    const api = mockApi(baseRoutes());
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'Teams' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Ban team Red' }));
    expect(api.count('POST /api/admin/moderate')).toBe(0);
    prompt.mockRestore();
  });
});

describe('Submissions tab', () => {
  const row = (id: number, result = 'wrong') => ({
    _id: String(id),
    time: '2026-01-10T12:00:00.000Z',
    username: 'alice',
    team: 'Red',
    challenge: 'Web 1',
    result,
    ...(result === 'wrong' ? { submitted: `guess-${id}` } : {}),
    address: '10.0.0.7',
  });

  it('lists attempts, filters them, pages them and offers the CSV of the same filters', async () => {
    mockApi(
      baseRoutes({
        'GET /api/admin/submissions': () => json({ rows: [row(2), row(1, 'correct')], next_cursor: '1' }),
        'GET /api/admin/submissions?cursor=1': () => json({ rows: [row(0)], next_cursor: null }),
        'GET /api/admin/submissions?user=alice&result=wrong': () =>
          json({ rows: [row(9)], next_cursor: null }),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'Submissions' }));
    const table = await screen.findByRole('table', { name: 'Submissions' });
    expect(within(table).getByText('guess-2')).toBeInTheDocument();
    expect(within(table).getAllByText('10.0.0.7')).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: /next/i }));
    expect(await screen.findByText('guess-0')).toBeInTheDocument();

    const form = screen.getByRole('form', { name: 'Submission filters' });
    await userEvent.type(within(form).getByLabelText('User'), 'alice');
    await userEvent.selectOptions(within(form).getByLabelText('Result'), 'wrong');
    await userEvent.click(within(form).getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText('guess-9')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      '/api/admin/submissions.csv?user=alice&result=wrong',
    );
  });
});

describe('Integrity tab', () => {
  const evidenceRow = (id: string, username: string, team: string) => ({
    _id: id,
    time: '2026-01-10T12:00:00.000Z',
    username,
    team,
    challenge: 'Web 1',
    result: 'correct',
    address: '10.0.0.7',
  });

  it('lists each signal with its competitors, and its evidence link opens the Submissions tab on those rows', async () => {
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/signals': () =>
          json([
            {
              kind: 'same_address_solves',
              summary: "Red and bob solved 'Web 1' 2 min apart from 10.0.0.7",
              competitors: ['Red', 'bob'],
              submission_ids: ['11', '14'],
            },
            {
              kind: 'other_team_flag',
              summary:
                "alice (Red) sent the per-team flag of 'Web 2' that belongs to Blue to 'Web 2': certain, that flag is derived for Blue alone",
              competitors: ['Red', 'Blue'],
              submission_ids: ['17'],
            },
          ]),
        'GET /api/admin/submissions?ids=11%2C14': () =>
          json({
            rows: [evidenceRow('14', 'bob', 'None'), evidenceRow('11', 'alice', 'Red')],
            next_cursor: null,
          }),
        'GET /api/admin/submissions': () =>
          json({ rows: [evidenceRow('20', 'carol', 'Blue')], next_cursor: null }),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'Integrity' }));
    const table = await screen.findByRole('table', { name: 'Signals' });
    expect(within(table).getByText('Same address, same solve')).toBeInTheDocument();
    expect(within(table).getByText('Red, bob')).toBeInTheDocument();
    expect(within(table).getByText('11, 14')).toBeInTheDocument();
    expect(within(table).getByText("Another competitor's per-team flag (certain)")).toBeInTheDocument();
    expect(within(table).getByText('Red, Blue')).toBeInTheDocument();

    await userEvent.click(within(table).getByRole('button', { name: 'Show 2 rows in Submissions' }));
    expect(screen.getByRole('tab', { name: 'Submissions' })).toHaveAttribute('aria-selected', 'true');
    const rows = await screen.findByRole('table', { name: 'Submissions' });
    expect(
      within(rows)
        .getAllByRole('row')
        .slice(1)
        .map((r) => within(r).getAllByRole('cell')[0]!.textContent),
    ).toEqual(['14', '11']);
    expect(screen.getByTestId('evidence-note')).toHaveTextContent(
      'Showing the evidence of a signal: rows 11, 14.',
    );
    expect(api.count('GET /api/admin/submissions')).toBe(0);
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      '/api/admin/submissions.csv?ids=11%2C14',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Show all submissions' }));
    expect(await screen.findByText('carol')).toBeInTheDocument();
    expect(screen.queryByTestId('evidence-note')).toBeNull();
  });

  it('says when there is nothing to look into', async () => {
    mockApi(baseRoutes({ 'GET /api/admin/signals': () => json([]) }));
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'Integrity' }));
    expect(await screen.findByText('No signal: nothing unusual in the submission log.')).toBeInTheDocument();
  });
});
