import { UI_TEXT } from '@ctf/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { baseRoutes, json, mockApi, renderPage, useDialogSpies } from '../testing';
import { AdminPanel } from './AdminPanel';

const dialogs = useDialogSpies();
const message = () => screen.getByTestId('admin-message');

describe('Upload', () => {
  const zip = (name: string, type = 'application/zip') =>
    new File([new Uint8Array([0x50, 0x4b, 3, 4])], name, { type });

  async function openUpload() {
    await userEvent.click(screen.getByRole('tab', { name: 'Upload' }));
    return screen.getByLabelText('ZIP files') as HTMLInputElement;
  }

  it('alerts the non-ZIP names on choosing and clears the selection', async () => {
    const api = mockApi(baseRoutes());
    renderPage(<AdminPanel />);
    const input = await openUpload();
    expect(input).toHaveAttribute('accept', '.zip');
    expect(input.multiple).toBe(true);
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(input, [
      zip('ok.zip'),
      new File(['x'], 'a.txt', { type: 'text/plain' }),
      new File(['y'], 'b.png', { type: 'image/png' }),
    ]);
    expect(dialogs.alert).toHaveBeenCalledWith('Only ZIP files are allowed. Invalid files: a.txt, b.png');
    expect(input.value).toBe('');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(dialogs.alert).toHaveBeenLastCalledWith('Please select at least one ZIP file.');
    expect(api.count('POST /api/admin/ctf/upload')).toBe(0);
  });

  it('uploads one request per file and summarises in orange when some fail', async () => {
    const api = mockApi(
      baseRoutes({
        'POST /api/admin/ctf/upload': (body) => {
          const file = (body as FormData).get('file') as File;
          return file.name === 'one.zip'
            ? json({ acknowledge: true, message: "File 'one.zip' uploaded successfully." })
            : json({ acknowledge: false, message: "A file named 'two.zip' already exists." }, 409);
        },
      }),
    );
    renderPage(<AdminPanel />);
    const input = await openUpload();
    await userEvent.upload(input, [zip('one.zip'), zip('two.zip', 'application/x-zip-compressed')]);
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    const summary = await screen.findByTestId('upload-summary');
    expect(api.count('POST /api/admin/ctf/upload')).toBe(2);
    expect(api.calls.find((c) => c.key === 'POST /api/admin/ctf/upload')?.init?.credentials).toBe('include');
    expect(summary).toHaveTextContent('Uploaded 1 of 2 files successfully.');
    expect(summary).toHaveTextContent("✓ Uploaded: one.zip: File 'one.zip' uploaded successfully.");
    expect(summary).toHaveTextContent("✗ Failed: two.zip: A file named 'two.zip' already exists.");
    expect(summary).toHaveClass('text-warning');
  });

  it('is green when all succeed, red when none, and says Upload failed when nothing answers', async () => {
    let mode: 'ok' | 'refuse' | 'down' = 'ok';
    mockApi(
      baseRoutes({
        'POST /api/admin/ctf/upload': () => {
          if (mode === 'down') throw new TypeError('Failed to fetch');
          return mode === 'ok'
            ? json({ acknowledge: true, message: 'stored' })
            : json({ acknowledge: false, message: 'not a ZIP archive' }, 400);
        },
      }),
    );
    renderPage(<AdminPanel />);
    const input = await openUpload();
    const send = async () => {
      await userEvent.upload(input, [zip('x.zip')]);
      await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    };
    await send();
    await waitFor(() => expect(screen.getByTestId('upload-summary')).toHaveClass('text-success'));
    expect(screen.getByTestId('upload-summary')).toHaveTextContent('Uploaded 1 of 1 files successfully.');
    mode = 'refuse';
    await send();
    await waitFor(() => expect(screen.getByTestId('upload-summary')).toHaveClass('text-danger'));
    expect(screen.getByTestId('upload-summary')).toHaveTextContent('Uploaded 0 of 1 files successfully.');
    mode = 'down';
    await send();
    await waitFor(() => expect(screen.getByTestId('upload-summary')).toHaveTextContent(UI_TEXT.uploadFailed));
  });

  it('lists stored files and deletes one after confirming', async () => {
    const api = mockApi(
      baseRoutes({
        'POST /api/admin/ctf/delete_file': () =>
          json({ acknowledge: true, message: "File 'a.zip' deleted." }),
      }),
    );
    renderPage(<AdminPanel />);
    await openUpload();
    await userEvent.click(await screen.findByRole('button', { name: 'Delete file a.zip' }));
    expect(dialogs.confirm).toHaveBeenLastCalledWith('Are you sure you want to delete this file?');
    expect(api.bodyOf('POST /api/admin/ctf/delete_file')).toEqual({ filename: 'a.zip' });
    await waitFor(() => expect(message()).toHaveTextContent("File 'a.zip' deleted."));
  });
});
