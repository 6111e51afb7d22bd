import type { Announcement } from '@ctf/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NavBar } from '../../../components/NavBar';
import { json, mockApi } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import { AnnouncementsPage } from './AnnouncementsPage';

const announcement = (n: number, overrides: Partial<Announcement> = {}): Announcement => ({
  _id: String(n),
  title: `Announcement ${n}`,
  body_html: `<p>Body ${n}</p>`,
  pinned: false,
  created_at: '2026-01-10T12:00:00.000Z',
  updated_at: '2026-01-10T12:00:00.000Z',
  ...overrides,
});

function routes(list: Announcement[]) {
  return {
    'GET /api/info/announcements': () => json(list),
    'GET /api/user/info': () => json(null),
  };
}

beforeEach(() => {
  window.localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('announcements page', () => {
  it('lists them in the order served, pinned marked, with bodies sanitised again in the browser', async () => {
    const api = mockApi(
      routes([
        announcement(2, { pinned: true, title: 'Rules' }),
        announcement(3, {
          body_html:
            '<p>Hi<img src="x" onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">x</a></p>',
        }),
      ]),
    );
    renderAt(<AnnouncementsPage />, '/announcements');
    const items = await screen.findAllByTestId('announcement');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByRole('heading', { level: 2 })).toHaveTextContent('PinnedRules');
    const body = within(items[1]!).getByTestId('announcement-body');
    expect(body.innerHTML).not.toMatch(/onerror|<script|javascript:/);
    expect(body).toHaveTextContent('Hi');
    // Read without credentials: the same answer for everyone.
    expect(api.calls.find((c) => c.key === 'GET /api/info/announcements')?.init?.credentials).toBe('omit');
  });

  it('counts unread ones in the navbar until the page is opened, remembered by the browser', async () => {
    mockApi(routes([announcement(1), announcement(2)]));
    const first = renderAt(<NavBar />, '/');
    expect(await screen.findByTestId('unread-announcements')).toHaveTextContent('2 unread');
    first.unmount();
    renderAt(
      <>
        <NavBar />
        <AnnouncementsPage />
      </>,
      '/announcements',
    );
    await screen.findAllByTestId('announcement');
    await waitFor(() => expect(screen.queryByTestId('unread-announcements')).toBeNull());
    expect(window.localStorage.getItem('ctf.announcements.seen')).toBe('1,2');
  });

  it('says so when there is none', async () => {
    mockApi(routes([]));
    renderAt(<AnnouncementsPage />, '/announcements');
    expect(await screen.findByText('No announcements yet.')).toBeInTheDocument();
  });
});
