import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { baseRoutes, json, mockApi, renderPage, useDialogSpies } from '../testing';
import { AdminPanel } from './AdminPanel';

const dialogs = useDialogSpies();

const zip = (name = 'challenges.zip') =>
  new File([new Uint8Array([0x50, 0x4b, 3, 4])], name, { type: 'application/zip' });

async function openTab() {
  await userEvent.click(screen.getByRole('tab', { name: 'Import / Export' }));
  return screen.getByLabelText('Challenge archive (ZIP)') as HTMLInputElement;
}

describe('Import / Export', () => {
  it('runs a dry run and lists what would be created and updated, and the warnings', async () => {
    const api = mockApi(
      baseRoutes({
        'POST /api/admin/ctf/import?dry_run=1': () =>
          json({
            acknowledge: true,
            message: 'Dry run: 1 challenge(s) would be created and 1 updated; nothing was written.',
            created: ['Warmup'],
            updated: ['Falling Star'],
            warnings: [{ file: 'warmup/challenge.yml', line: 9, message: "Unknown key 'tags' was ignored." }],
            errors: [],
          }),
      }),
    );
    renderPage(<AdminPanel />);
    const input = await openTab();
    expect(input).toHaveAttribute('accept', '.zip');
    await userEvent.upload(input, zip());
    await userEvent.click(screen.getByRole('button', { name: 'Dry run' }));
    const report = await screen.findByTestId('import-result');
    expect(report).toHaveTextContent('nothing was written');
    expect(report).toHaveTextContent('Would create: Warmup');
    expect(report).toHaveTextContent('Would update: Falling Star');
    const warnings = within(report).getByRole('table', { name: 'Import warnings' });
    expect(within(warnings).getAllByRole('row')[1]).toHaveTextContent(
      "warmup/challenge.yml9Unknown key 'tags' was ignored.",
    );
    const sent = api.bodyOf('POST /api/admin/ctf/import?dry_run=1') as FormData;
    expect((sent.get('file') as File).name).toBe('challenges.zip');
    expect(api.count('POST /api/admin/ctf/import')).toBe(0);
  });

  it('imports and shows every error as a row of file, line and message', async () => {
    const api = mockApi(
      baseRoutes({
        'POST /api/admin/ctf/import': () =>
          json(
            {
              acknowledge: false,
              message: 'Nothing was imported: 2 errors.',
              created: [],
              updated: [],
              warnings: [],
              errors: [
                { file: 'a/challenge.yml', line: 3, message: "Unknown category 'Astrology'" },
                {
                  file: 'evil.zip',
                  line: null,
                  message: "'../x' points outside the archive (path traversal): refused.",
                },
              ],
            },
            400,
          ),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.upload(await openTab(), zip());
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    const report = await screen.findByTestId('import-result');
    expect(within(report).getByRole('alert')).toHaveTextContent('Nothing was imported: 2 errors.');
    const table = within(report).getByRole('table', { name: 'Import errors' });
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['File', 'Line', 'Message']);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['a/challenge.yml', '3', "Unknown category 'Astrology'"]);
    expect(
      within(rows[2]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['evil.zip', '', "'../x' points outside the archive (path traversal): refused."]);
    expect(api.count('POST /api/admin/ctf/import')).toBe(1);
  });

  it('refreshes the challenge list after an import, asks for a file first, and links the export', async () => {
    let listed = 0;
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/ctf/fetch_challenges': () => {
          listed += 1;
          return json([]);
        },
        'POST /api/admin/ctf/import': () =>
          json({
            acknowledge: true,
            message: 'Imported 1 challenge(s): 1 created, 0 updated.',
            created: ['Warmup'],
            updated: [],
            warnings: [],
            errors: [],
          }),
      }),
    );
    renderPage(<AdminPanel />);
    // The challenge list is open in its tab: an import must make it load again.
    await userEvent.click(screen.getByRole('tab', { name: 'View Challenges' }));
    await waitFor(() => expect(listed).toBe(1));
    const input = await openTab();
    await userEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(dialogs.alert).toHaveBeenCalledWith('Please select at least one ZIP file.');
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(input, new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(dialogs.alert).toHaveBeenLastCalledWith('Only ZIP files are allowed. Invalid files: notes.txt');
    expect(api.count('POST /api/admin/ctf/import')).toBe(0);

    await user.upload(input, zip());
    await user.click(screen.getByRole('button', { name: 'Import' }));
    const report = await screen.findByTestId('import-result');
    expect(within(report).getByRole('status')).toHaveTextContent('Created: Warmup');
    await waitFor(() => expect(listed).toBe(2));

    await user.click(screen.getByRole('tab', { name: 'Import / Export' }));
    expect(screen.getByRole('link', { name: 'Export challenges (ZIP)' })).toHaveAttribute(
      'href',
      '/api/admin/ctf/export',
    );
  });
});
