import { MESSAGES } from '@ctf/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SITE, baseRoutes, json, makeAdminChallenge, mockApi, renderPage, useDialogSpies } from '../testing';
import { AdminPanel } from './AdminPanel';

const dialogs = useDialogSpies();
const message = () => screen.getByTestId('admin-message');

describe('View Challenges', { timeout: 20_000 }, () => {
  it('enables, disables and deletes with a confirmation', async () => {
    const api = mockApi(
      baseRoutes({
        'POST /api/admin/ctf/toggle_status': () =>
          json({ acknowledge: true, message: 'Challenge disabled.' }),
        'POST /api/admin/ctf/delete_challenge': () =>
          json({ acknowledge: true, message: 'Challenge deleted successfully.' }),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'View Challenges' }));
    expect(await screen.findByRole('button', { name: 'Disable Challenge 1' })).toHaveTextContent('Disable');
    expect(screen.getByRole('button', { name: 'Enable Challenge 2' })).toHaveTextContent('Enable');
    await userEvent.click(screen.getByRole('button', { name: 'Disable Challenge 1' }));
    expect(api.bodyOf('POST /api/admin/ctf/toggle_status')).toEqual({ challenge_id: '1' });
    await waitFor(() => expect(message()).toHaveTextContent('Challenge disabled.'));
    await userEvent.click(screen.getByRole('button', { name: 'Delete Challenge 2' }));
    expect(dialogs.confirm).toHaveBeenLastCalledWith('Are you sure you want to delete this challenge?');
    expect(api.bodyOf('POST /api/admin/ctf/delete_challenge')).toEqual({ challenge_id: '2' });
  });

  it("shows a competitor's per-team flag on demand, only for per-team challenges", async () => {
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/ctf/fetch_challenges': () =>
          json([
            makeAdminChallenge(1, { per_team: true, per_team_on_page: true }),
            makeAdminChallenge(2, { is_active: false }),
          ]),
        'POST /api/admin/ctf/reveal_team_flag': () =>
          json({
            acknowledge: true,
            message: "The per-team flag of 'Red' for 'Challenge 1'.",
            competitor: 'Red',
            flag: 'flag{1_0123456789abcdef}',
          }),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'View Challenges' }));
    expect(await screen.findByText('Per-team flags, shown on its page')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: "Show a competitor's flag of Challenge 2" })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: "Show a competitor's flag of Challenge 1" }));
    const panel = screen.getByRole('region', { name: 'Per-team flag of Challenge 1' });
    await userEvent.type(within(panel).getByLabelText('Team or username'), 'alice');
    await userEvent.click(within(panel).getByRole('button', { name: 'Show flag' }));
    expect(await within(panel).findByTestId('team-flag')).toHaveTextContent(
      'Flag of Red: flag{1_0123456789abcdef}',
    );
    expect(api.bodyOf('POST /api/admin/ctf/reveal_team_flag')).toEqual({
      challenge_id: '1',
      competitor: 'alice',
    });
    await waitFor(() => expect(message()).toHaveTextContent("The per-team flag of 'Red' for 'Challenge 1'."));
    await userEvent.click(within(panel).getByRole('button', { name: 'Close' }));
    expect(screen.queryByTestId('team-flag')).toBeNull();
  });

  it('edits a challenge with derived points and returns to the list 1.5 s after saving', async () => {
    const api = mockApi(
      baseRoutes({
        'POST /api/admin/ctf/update_challenge': () =>
          json({ acknowledge: true, message: "Challenge 'Renamed' updated successfully." }),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'View Challenges' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Challenge 1' }));
    const form = screen.getByRole('form', { name: 'Save Changes' });
    const points = within(form).getByLabelText('Points');
    expect(points).toHaveValue('100');
    expect(points).toHaveAttribute('readonly');
    expect(within(form).getByLabelText('Flag')).toHaveValue('flag{1}');
    expect(await within(form).findByLabelText('a.zip')).toBeChecked();
    expect(within(form).getByLabelText('b.zip')).not.toBeChecked();
    await userEvent.clear(within(form).getByLabelText('Name'));
    await userEvent.type(within(form).getByLabelText('Name'), 'Renamed');
    await userEvent.selectOptions(within(form).getByLabelText('Difficulty'), 'Hard');
    expect(points).toHaveValue('300');
    expect(within(form).getByLabelText('Category').querySelectorAll('option:not([disabled])')).toHaveLength(
      7,
    );
    expect(within(form).getByLabelText('Difficulty').querySelectorAll('option:not([disabled])')).toHaveLength(
      5,
    );
    await userEvent.click(within(form).getByLabelText('b.zip'));
    await userEvent.click(within(form).getByRole('button', { name: 'Save Changes' }));
    expect(api.bodyOf('POST /api/admin/ctf/update_challenge')).toMatchObject({
      challenge_id: '1',
      name: 'Renamed',
      difficulty: 'Hard',
      points: 300,
      flags: [{ type: 'static', content: 'flag{1}' }],
      max_attempts: null,
      hints: [],
      files: ['a.zip', 'b.zip'],
    });
    await waitFor(() => expect(message()).toHaveTextContent("Challenge 'Renamed' updated successfully."));
    // Still on the form right after the save, back on the list after the delay.
    expect(screen.getByRole('form', { name: 'Save Changes' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Save Changes' })).toBeNull(), {
      timeout: 3000,
    });
    expect(screen.getByRole('table', { name: 'Challenges' })).toBeInTheDocument();
  });

  it('stays on the form when the save is refused', async () => {
    mockApi(
      baseRoutes({
        'POST /api/admin/ctf/update_challenge': () =>
          json({ acknowledge: false, message: 'A challenge with this name already exists.' }, 409),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'View Challenges' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Challenge 1' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(message()).toHaveTextContent('A challenge with this name already exists.'));
    await new Promise((r) => setTimeout(r, 1700));
    expect(screen.getByRole('form', { name: 'Save Changes' })).toBeInTheDocument();
  });
});

describe('Create Challenge', () => {
  async function fillForm() {
    const form = screen.getByRole('form', { name: 'Create Challenge' });
    await userEvent.type(within(form).getByLabelText('Name'), 'New one');
    await userEvent.type(within(form).getByLabelText('Written by'), 'club');
    await userEvent.selectOptions(within(form).getByLabelText('Category'), 'Cryptography');
    await userEvent.selectOptions(within(form).getByLabelText('Difficulty'), 'Simple');
    await userEvent.type(within(form).getByLabelText('Flag'), 'flag{{new}');
    return form;
  }

  it('only alerts during the event window', async () => {
    const now = Date.now();
    const api = mockApi(
      baseRoutes({
        'GET /api/info/site': () =>
          json({
            ...SITE,
            eventStart: new Date(now - 3_600_000).toISOString(),
            eventEnd: new Date(now + 3_600_000).toISOString(),
          }),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'Create Challenge' }));
    await waitFor(() => expect(api.count('GET /api/info/site')).toBe(1));
    const form = await fillForm();
    await userEvent.click(within(form).getByRole('button', { name: 'Create Challenge' }));
    expect(dialogs.alert).toHaveBeenCalledWith(MESSAGES.createDisabled);
    expect(api.count('POST /api/admin/ctf/create_challenge')).toBe(0);
  });

  it('creates outside the event window and clears the form', async () => {
    const api = mockApi(
      baseRoutes({
        'POST /api/admin/ctf/create_challenge': () =>
          json({ acknowledge: true, message: "Challenge 'New one' created successfully." }),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'Create Challenge' }));
    await waitFor(() => expect(api.count('GET /api/info/site')).toBe(1));
    const form = await fillForm();
    expect(within(form).getByLabelText('Points')).toHaveValue('50');
    await userEvent.click(await within(form).findByLabelText('b.zip'));
    // The Solution section: Markdown, who sees it, and a stored file shown with it.
    await userEvent.type(
      within(form).getByLabelText('Official solution (Markdown; empty: none)'),
      '# Use the key',
    );
    await userEvent.selectOptions(within(form).getByLabelText('Who sees the solution'), 'solved');
    await userEvent.click(within(form).getByLabelText('a.zip (solution)'));
    await userEvent.click(within(form).getByRole('button', { name: 'Create Challenge' }));
    expect(dialogs.alert).not.toHaveBeenCalled();
    expect(api.bodyOf('POST /api/admin/ctf/create_challenge')).toEqual({
      name: 'New one',
      written_by: 'club',
      category: 'Cryptography',
      difficulty: 'Simple',
      flags: [{ type: 'static', content: 'flag{new}' }],
      per_team: false,
      per_team_on_page: false,
      max_attempts: null,
      hints: [],
      release_at: null,
      prerequisites: [],
      description: '',
      files: ['b.zip'],
      points: 50,
      scoring: { type: 'static' },
      instance: null,
      solution: { content: '# Use the key', visibility: 'solved', files: ['a.zip'] },
    });
    await waitFor(() => expect(message()).toHaveTextContent("Challenge 'New one' created successfully."));
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveValue(''));
  });

  it('creates a challenge with per-team flags shown on its page, and asks for one exact flag first', async () => {
    const api = mockApi(
      baseRoutes({
        'POST /api/admin/ctf/create_challenge': () =>
          json({ acknowledge: true, message: "Challenge 'New one' created successfully." }),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'Create Challenge' }));
    await waitFor(() => expect(api.count('GET /api/info/site')).toBe(1));
    const form = await fillForm();
    expect(within(form).queryByLabelText(/Show each competitor its own flag/)).toBeNull();
    await userEvent.click(within(form).getByLabelText(/^Per-team flags/));
    await userEvent.click(within(form).getByLabelText(/Show each competitor its own flag/));
    await userEvent.click(within(form).getByRole('button', { name: 'Add another accepted flag' }));
    const second = within(form).getAllByTestId('flag-row')[1]!;
    await userEvent.type(within(second).getByRole('textbox'), 'flag{{other}');
    await userEvent.click(within(form).getByRole('button', { name: 'Create Challenge' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('exactly one exact');
    expect(api.count('POST /api/admin/ctf/create_challenge')).toBe(0);
    await userEvent.click(within(form).getByRole('button', { name: 'Remove flag 2' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Create Challenge' }));
    await waitFor(() => expect(api.count('POST /api/admin/ctf/create_challenge')).toBe(1));
    expect(api.bodyOf('POST /api/admin/ctf/create_challenge')).toMatchObject({
      flags: [{ type: 'static', content: 'flag{new}' }],
      per_team: true,
      per_team_on_page: true,
    });
  });

  it('asks for the required fields before sending', async () => {
    const api = mockApi(baseRoutes());
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'Create Challenge' }));
    const form = screen.getByRole('form', { name: 'Create Challenge' });
    await userEvent.type(within(form).getByLabelText('Name'), 'Half done');
    // Submit the form directly: jsdom does not run the browser's own required-field check.
    form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('required');
    expect(api.count('POST /api/admin/ctf/create_challenge')).toBe(0);
  });
});

describe('Authoring: flag list, attempt limit and hints', { timeout: 20_000 }, () => {
  it('edits several flags of each type, the limit and ordered hints, keeping hint ids', async () => {
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/ctf/fetch_challenges': () =>
          json([
            makeAdminChallenge(1, {
              flags: [{ type: 'regex', content: 'flag\\{[0-9]+\\}' }],
              max_attempts: 3,
              hints: [
                { _id: '7', title: 'Look closer', content: '<p>x</p>', cost: 20, unlocked_by: ['ann'] },
              ],
            }),
          ]),
        'POST /api/admin/ctf/update_challenge': () => json({ acknowledge: true, message: 'saved' }),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'View Challenges' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Challenge 1' }));
    const form = screen.getByRole('form', { name: 'Save Changes' });
    expect(within(form).getByLabelText('Comparison')).toHaveValue('regex');
    expect(within(form).getByLabelText('Attempt limit per user')).toHaveValue(3);
    expect(within(form).getByText('Unlocked by ann')).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('button', { name: 'Add another accepted flag' }));
    await userEvent.selectOptions(within(form).getByLabelText('Comparison 2'), 'case_insensitive');
    await userEvent.type(within(form).getByLabelText('Flag 2'), 'Flag{{Two}');
    await userEvent.clear(within(form).getByLabelText('Attempt limit per user'));
    await userEvent.click(within(form).getByRole('button', { name: 'Add hint' }));
    await userEvent.type(within(form).getByLabelText('Hint 2 title'), 'Free one');
    await userEvent.type(within(form).getByLabelText('Hint 2 content'), 'Try **base64**');
    await userEvent.click(within(form).getAllByRole('button', { name: 'Move up' })[1]!);
    await userEvent.click(within(form).getByRole('button', { name: 'Save Changes' }));
    expect(api.bodyOf('POST /api/admin/ctf/update_challenge')).toMatchObject({
      flags: [
        { type: 'regex', content: 'flag\\{[0-9]+\\}' },
        { type: 'case_insensitive', content: 'Flag{Two}' },
      ],
      max_attempts: null,
      hints: [
        { title: 'Free one', content: 'Try **base64**', cost: 0 },
        { _id: '7', title: 'Look closer', content: '<p>x</p>', cost: 20 },
      ],
    });
  });

  it('refuses a hint without a title and a bad limit before sending', async () => {
    const api = mockApi(baseRoutes());
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'View Challenges' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Challenge 1' }));
    const form = screen.getByRole('form', { name: 'Save Changes' });
    // Submit the form directly: jsdom's own field checks would stop the click first.
    const submit = () => form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    await userEvent.type(within(form).getByLabelText('Attempt limit per user'), '0');
    submit();
    expect(await within(form).findByRole('alert')).toHaveTextContent('attempt limit');
    await userEvent.clear(within(form).getByLabelText('Attempt limit per user'));
    await userEvent.click(within(form).getByRole('button', { name: 'Add hint' }));
    submit();
    await waitFor(() =>
      expect(within(form).getByRole('alert')).toHaveTextContent('Every hint needs a title'),
    );
    expect(api.count('POST /api/admin/ctf/update_challenge')).toBe(0);
  });
});

describe('Scheduled release and prerequisites', { timeout: 20_000 }, () => {
  it('shows "Scheduled for", sets a wave for the selected challenges, and edits release and prerequisites', async () => {
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/ctf/fetch_challenges': () =>
          json([
            makeAdminChallenge(1, { release_at: later }),
            makeAdminChallenge(2, { prerequisites: ['1'] }),
            makeAdminChallenge(3),
          ]),
        'POST /api/admin/ctf/schedule_release': () =>
          json({ acknowledge: true, message: '2 challenge(s) scheduled' }),
        'POST /api/admin/ctf/update_challenge': () => json({ acknowledge: true, message: 'saved' }),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'View Challenges' }));
    const rows = await screen.findAllByTestId('admin-challenge-row');
    expect(within(rows[0]!).getByText(/^Scheduled for /)).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Requires Challenge 1')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Released')).toBeInTheDocument();
    await userEvent.click(screen.getByLabelText('Select Challenge 2'));
    await userEvent.click(screen.getByLabelText('Select Challenge 3'));
    const when = screen.getByLabelText('Release time for the selected challenges');
    await userEvent.type(when, '2030-01-02T03:04');
    await userEvent.click(screen.getByRole('button', { name: 'Schedule 2 selected' }));
    expect(api.bodyOf('POST /api/admin/ctf/schedule_release')).toEqual({
      challenge_ids: ['2', '3'],
      release_at: new Date('2030-01-02T03:04').toISOString(),
    });
    await userEvent.click(screen.getByRole('button', { name: 'Edit Challenge 2' }));
    const form = screen.getByRole('form', { name: 'Save Changes' });
    expect(within(form).getByLabelText('Requires Challenge 1')).toBeChecked();
    expect(within(form).queryByLabelText('Requires Challenge 2')).toBeNull();
    await userEvent.click(within(form).getByLabelText('Requires Challenge 3'));
    await userEvent.type(within(form).getByLabelText('Release time'), '2030-05-06T07:08');
    await userEvent.click(within(form).getByRole('button', { name: 'Save Changes' }));
    expect(api.bodyOf('POST /api/admin/ctf/update_challenge')).toMatchObject({
      prerequisites: ['1', '3'],
      release_at: new Date('2030-05-06T07:08').toISOString(),
    });
  });
});
