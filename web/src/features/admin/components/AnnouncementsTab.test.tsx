import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { baseRoutes, json, mockApi, renderPage, useDialogSpies } from '../testing';
import { AdminPanel } from './AdminPanel';

const dialogs = useDialogSpies();
const message = () => screen.getByTestId('admin-message');

const row = (n: number, pinned = false) => ({
  _id: String(n),
  title: `News ${n}`,
  body: `Body **${n}**`,
  body_html: `<p>Body <strong>${n}</strong></p>`,
  pinned,
  created_at: '2026-01-10T12:00:00.000Z',
  updated_at: '2026-01-10T12:00:00.000Z',
});

describe('Announcements tab', () => {
  it('posts, edits, pins and deletes through the admin calls', async () => {
    const api = mockApi(
      baseRoutes({
        'GET /api/admin/announcements': () => json([row(1, true), row(2)]),
        'GET /api/admin/webhook/status': () =>
          json({
            configured: true,
            events: ['announcements', 'first-blood'],
            pending: 2,
            last_success_at: null,
            last_error: '2026-01-10T12:00:00.000Z HTTP 500',
          }),
        'POST /api/admin/announcements/create': () =>
          json({ acknowledge: true, message: 'Announcement posted.', _id: '3' }),
        'POST /api/admin/announcements/update': () =>
          json({ acknowledge: true, message: 'Announcement updated.' }),
        'POST /api/admin/announcements/delete': () =>
          json({ acknowledge: true, message: 'Announcement deleted.' }),
      }),
    );
    renderPage(<AdminPanel />);
    await userEvent.click(screen.getByRole('tab', { name: 'Announcements' }));
    const table = await screen.findByRole('table', { name: 'Announcements' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(await screen.findByTestId('webhook-status')).toHaveTextContent(
      'Discord webhook: on for announcements, first-blood; 2 waiting to be sent; last error: 2026-01-10T12:00:00.000Z HTTP 500.',
    );

    const form = screen.getByRole('form', { name: 'Post an announcement' });
    await userEvent.type(within(form).getByLabelText('Title'), 'Wave 2');
    await userEvent.type(within(form).getByLabelText('Body (Markdown)'), 'New **challenges**');
    await userEvent.click(within(form).getByLabelText('Pinned (shown on the home page)'));
    await userEvent.click(within(form).getByRole('button', { name: 'Post' }));
    expect(api.bodyOf('POST /api/admin/announcements/create')).toEqual({
      title: 'Wave 2',
      body: 'New **challenges**',
      pinned: true,
    });
    await waitFor(() => expect(message()).toHaveTextContent('Announcement posted.'));
    expect(within(form).getByLabelText('Title')).toHaveValue('');

    await userEvent.click(screen.getByRole('button', { name: 'Edit announcement News 2' }));
    const editForm = screen.getByRole('form', { name: 'Edit announcement' });
    expect(within(editForm).getByLabelText('Body (Markdown)')).toHaveValue('Body **2**');
    await userEvent.type(within(editForm).getByLabelText('Title'), '!');
    await userEvent.click(within(editForm).getByRole('button', { name: 'Save' }));
    expect(api.bodyOf('POST /api/admin/announcements/update')).toEqual({
      _id: '2',
      title: 'News 2!',
      body: 'Body **2**',
      pinned: false,
    });

    await userEvent.click(screen.getByRole('button', { name: 'Unpin announcement News 1' }));
    expect(api.bodyOf('POST /api/admin/announcements/update')).toEqual({
      _id: '1',
      title: 'News 1',
      body: 'Body **1**',
      pinned: false,
    });

    await userEvent.click(screen.getByRole('button', { name: 'Delete announcement News 2' }));
    expect(dialogs.confirm).toHaveBeenLastCalledWith('Are you sure you want to delete this announcement?');
    expect(api.bodyOf('POST /api/admin/announcements/delete')).toEqual({ _id: '2' });
  });
});
