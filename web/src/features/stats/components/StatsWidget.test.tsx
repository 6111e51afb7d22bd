import { PIE_CHART, UI_TEXT, type TeamCompletion, type User } from '@ctf/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query';
import { StatsWidget } from './StatsWidget';

afterEach(() => vi.unstubAllGlobals());

const baseUser: User = {
  _id: '1',
  username: 'alice',
  avatarUrl: '',
  email: '',
  team: 'None',
  team_id: null,
  is_leader: false,
  is_admin: false,
  role: 'player',
  completions: [],
  awards: [],
  user_rates: [],
};

function serve(user: Partial<User>, teamCompletions: TeamCompletion[] = []) {
  const fetch = vi.fn(async (path: string, init?: RequestInit) => {
    if (path === '/api/user/info') return new Response(JSON.stringify({ ...baseUser, ...user }));
    if (path === '/api/info/completions' && init?.method === 'GET') {
      return new Response(JSON.stringify({ userCompletions: [], teamCompletions }));
    }
    throw new Error(`unexpected call ${path}`);
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderWidget() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <StatsWidget />
    </QueryClientProvider>,
  );
}

const tc = (memberName: string, points: number, id: string): TeamCompletion => ({
  id,
  memberName,
  points,
  name: `C${id}`,
  time: '2025-10-15T01:00:00Z',
});

// Rendering whole pages is slow when every workspace's tests run at once.
describe('StatsWidget', { timeout: 20_000 }, () => {
  it('lists my completions with their local time', async () => {
    const time = '2025-10-15T01:02:03Z';
    serve({ completions: [{ id: '4', name: 'Caesar', time }] });
    renderWidget();
    expect(screen.getByRole('radio', { name: 'My Stats' })).toBeChecked();
    expect(await screen.findByText('Caesar')).toBeInTheDocument();
    expect(screen.getByText(new Date(time).toLocaleString())).toHaveAttribute('datetime', time);
  });

  it("says 'No completions yet' when I solved nothing", async () => {
    serve({});
    renderWidget();
    expect(await screen.findByText(UI_TEXT.noCompletions)).toBeInTheDocument();
  });

  it("says 'You're not on a Team.' under Team Stats off a team, without asking for completions", async () => {
    const fetch = serve({});
    renderWidget();
    await userEvent.click(screen.getByRole('radio', { name: 'Team Stats' }));
    expect(await screen.findByText(UI_TEXT.notOnTeam)).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalledWith('/api/info/completions', expect.anything());
  });

  it("says 'No completions yet' for a team that scored nothing", async () => {
    serve({ team: 'Red', team_id: '2' });
    renderWidget();
    await userEvent.click(screen.getByRole('radio', { name: 'Team Stats' }));
    expect(await screen.findByText(UI_TEXT.noCompletions)).toBeInTheDocument();
  });

  it('draws the pie of points per member (400 by 400, radius 100, the six colours in order) under Team Stats', async () => {
    serve({ team: 'Red', team_id: '2' }, [tc('alice', 100, '1'), tc('bob', 300, '2'), tc('alice', 50, '3')]);
    const { container } = renderWidget();
    expect(container.querySelector('svg.team-pie-chart')).toBeNull();
    await userEvent.click(screen.getByRole('radio', { name: 'Team Stats' }));
    expect(await screen.findByText(/Points per member/, undefined, { timeout: 10_000 })).toHaveTextContent(
      'Points per member: alice 150, bob 300',
    );
    const svg = screen.getByRole('img', { name: 'Points per member' });
    expect(svg.getAttribute('width')).toBe(String(PIE_CHART.width));
    expect(svg.getAttribute('height')).toBe(String(PIE_CHART.height));
    const slices = [...svg.querySelectorAll('.team-pie-slice path')];
    expect(slices.map((p) => p.getAttribute('fill'))).toEqual(PIE_CHART.colors.slice(0, 2));
    // The tooltips and the values beside the slices.
    expect(slices.map((p) => p.querySelector('title')!.textContent)).toEqual(['alice: 150', 'bob: 300']);
    expect([...svg.querySelectorAll('.team-pie-slice text')].map((t) => t.textContent)).toEqual([
      '150',
      '300',
    ]);
    // alice's third: clockwise from twelve o'clock (200, 100: the outer radius above the centre) to four.
    expect(slices[0]!.getAttribute('d')).toBe('M200,200L200.00,100.00A100,100 0 0 1 286.60,250.00Z');
  });

  it("draws a lone scorer's slice as the whole disc", async () => {
    serve({ team: 'Red', team_id: '2' }, [tc('alice', 100, '1')]);
    renderWidget();
    await userEvent.click(screen.getByRole('radio', { name: 'Team Stats' }));
    const svg = await screen.findByRole('img', { name: 'Points per member' });
    const d = svg.querySelector('.team-pie-slice path')!.getAttribute('d')!;
    expect(d).toBe('M200.00,100.00A100,100 0 1 1 200.00,300.00A100,100 0 1 1 200.00,100.00Z');
    await waitFor(() => expect(screen.getByText(/Points per member/)).toHaveTextContent('alice 100'));
  });
});
