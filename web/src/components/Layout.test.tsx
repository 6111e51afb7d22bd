import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query';
import { Layout } from './Layout';

beforeEach(() => {
  // The navbar asks who is signed in: a visitor.
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('null', { headers: { 'Content-Type': 'application/json' } })),
  );
  // jsdom has no scrolling.
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function Broken(): never {
  throw new Error('boom');
}

function renderApp(start: string) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[start]}>
        <Routes>
          <Route element={<Layout />}>
            <Route path="broken" element={<Broken />} />
            <Route path="leaderboard" element={<h1>Fine page</h1>} />
            <Route index element={<h1>Home page</h1>} />
            <Route path="*" element={<h1>Not here</h1>} />
          </Route>
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the page layout', () => {
  it('shows what happened when a page breaks, with ways on, and the next page works', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp('/broken');
    expect(
      await screen.findByRole('heading', { name: 'Something went wrong on this page' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go home' })).toHaveAttribute('href', '/');
    // The navbar still works, and the next page is not held hostage by the broken one.
    await userEvent.click(screen.getByRole('link', { name: 'Leaderboard' }));
    expect(await screen.findByRole('heading', { name: 'Fine page' })).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong on this page')).toBeNull();
  });

  it("names each page in the title and moves the focus to the new page's content", async () => {
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeInTheDocument();
    expect(document.title).toBe('Capture The Flag');
    // The first page keeps the browser's own starting point.
    expect(document.activeElement).toBe(document.body);
    await userEvent.click(screen.getByRole('link', { name: 'Leaderboard' }));
    expect(await screen.findByRole('heading', { name: 'Fine page' })).toBeInTheDocument();
    expect(document.title).toBe('Leaderboard · Capture The Flag');
    expect(document.activeElement).toBe(screen.getByRole('main'));
    expect(window.scrollTo).toHaveBeenCalledWith(0, 0);
  });

  it('titles an unknown address as not found', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Not here' })).toBeInTheDocument();
    expect(document.title).toBe('Page not found · Capture The Flag');
  });
});
