import { DIVISION_MESSAGES } from '@ctf/contract';
import { screen, waitFor } from '@testing-library/react';
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

describe('Division picker (profile)', { timeout: 20_000 }, () => {
  it('is not shown while the site has no divisions', async () => {
    mockApi({
      'GET /api/user/tokens': () => json([]),
      'GET /api/user/identities': () => json([]),
      'GET /api/user/info': () => json(makeUser()),
      'GET /api/info/site': () => json(SITE),
    });
    renderAt(<ProfileView />, '/profile');
    expect(await screen.findByRole('heading', { name: 'alice' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Your division')).toBeNull();
  });

  it('shows the current division and saves another', async () => {
    let division: string | null = 'Open';
    const api = mockApi({
      'GET /api/user/tokens': () => json([]),
      'GET /api/user/identities': () => json([]),
      'GET /api/user/info': () => json(makeUser({ division })),
      'GET /api/info/site': () => json({ ...SITE, divisions: ['First-years', 'Open'] }),
      'POST /api/user/division': (body) => {
        division = (body as { division: string | null }).division;
        return json({ acknowledge: true, message: DIVISION_MESSAGES.picked, division });
      },
    });
    renderAt(<ProfileView />, '/profile');
    const select = await screen.findByLabelText('Your division');
    await waitFor(() => expect(select).toHaveValue('Open'));
    expect(screen.getByRole('button', { name: 'Save division' })).toBeDisabled();
    await userEvent.selectOptions(select, 'First-years');
    await userEvent.click(screen.getByRole('button', { name: 'Save division' }));
    expect(await screen.findByText(DIVISION_MESSAGES.picked)).toBeInTheDocument();
    expect(api.bodyOf('POST /api/user/division')).toEqual({ division: 'First-years' });
    // The user's answer is asked again and the picker follows it.
    await waitFor(() => expect(api.count('GET /api/user/info')).toBe(2));
    await waitFor(() => expect(screen.getByLabelText('Your division')).toHaveValue('First-years'));
  });

  it("shows the server's refusal after the first solve", async () => {
    mockApi({
      'GET /api/user/tokens': () => json([]),
      'GET /api/user/identities': () => json([]),
      'GET /api/user/info': () =>
        json(
          makeUser({
            division: 'Open',
            completions: [{ id: '1', name: 'Warmup', time: '2025-10-15T02:00:00Z' }],
          }),
        ),
      'GET /api/info/site': () => json({ ...SITE, divisions: ['First-years', 'Open'] }),
      'POST /api/user/division': () =>
        json({ message: DIVISION_MESSAGES.lockedAfterSolve, code: 'conflict' }, 409),
    });
    renderAt(<ProfileView />, '/profile');
    expect(await screen.findByText(/cannot change after your first solve/)).toBeInTheDocument();
    await userEvent.selectOptions(await screen.findByLabelText('Your division'), 'First-years');
    await userEvent.click(screen.getByRole('button', { name: 'Save division' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(DIVISION_MESSAGES.lockedAfterSolve);
  });
});
