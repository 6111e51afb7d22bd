import { MESSAGES, UI_TEXT, type PublicChallenge, type User } from '@ctf/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import { json, makeChallenge, makeUser, mockApi, renderPage } from '../testing';
import { CompetePage } from './CompetePage';

afterEach(() => vi.unstubAllGlobals());

const many = (n: number) => Array.from({ length: n }, (_, i) => makeChallenge(i + 1));

function serve(
  challenges: PublicChallenge[] | { status: number; message: string },
  user: User = makeUser(),
  teamIds: string[] = [],
) {
  return mockApi({
    'GET /api/info/site': () => json({ activated: true }),
    'GET /api/ctf/challenges': () =>
      Array.isArray(challenges) ? json(challenges) : json({ message: challenges.message }, challenges.status),
    'GET /api/user/info': () => json(user),
    'GET /api/info/completions': () =>
      json({
        userCompletions: [],
        teamCompletions: teamIds.map((id) => ({
          id,
          memberName: 'bob',
          points: 100,
          name: `Challenge ${id}`,
          time: '2025-10-15T01:00:00Z',
        })),
      }),
  });
}

const cards = () => screen.queryAllByTestId('challenge-card');
const indicator = () => screen.getByTestId('page-indicator').textContent;

// Rendering whole pages is slow when every workspace's tests run at once.
describe('CompetePage', { timeout: 20_000 }, () => {
  it('pages 20 cards at a time with Prev/Next and Page X of Y', async () => {
    const api = serve(many(45));
    renderPage(<CompetePage />);
    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument();
    expect(cards()).toHaveLength(20);
    expect(screen.getByRole('button', { name: 'Prev' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(indicator()).toBe('Page 2 of 3');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(indicator()).toBe('Page 3 of 3');
    expect(cards()).toHaveLength(5);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Prev' }));
    expect(indicator()).toBe('Page 2 of 3');
    // The list is asked for without credentials (docs/product.md §13).
    expect(api.calls.find((c) => c.key === 'GET /api/ctf/challenges')?.init?.credentials).toBe('omit');
    expect(screen.getByRole('link', { name: /how to connect/i })).toHaveAttribute('href', '/challenge_help');
    expect(screen.getByRole('link', { name: /rate the challenges/i })).toHaveAttribute(
      'href',
      '/rate-challenge',
    );
  });

  it('starts with My Uncompleted on, hides what I solved, and has no team boxes off a team', async () => {
    serve(
      many(3),
      makeUser({ completions: [{ id: '2', name: 'Challenge 2', time: '2025-10-15T01:00:00Z' }] }),
    );
    renderPage(<CompetePage />);
    await screen.findByText('Page 1 of 1');
    expect(screen.getByLabelText('My Uncompleted')).toBeChecked();
    expect(screen.getByLabelText('My Completed')).not.toBeChecked();
    expect(screen.queryByLabelText('Team Completed')).toBeNull();
    expect(screen.queryByLabelText('Team Uncompleted')).toBeNull();
    expect(screen.queryByText('Challenge 2')).toBeNull();
    expect(cards()).toHaveLength(2);
    expect(screen.queryByText('Team not completed')).toBeNull();
    await userEvent.click(screen.getByLabelText('My Completed'));
    expect(cards()).toHaveLength(3);
    expect(within(cards()[1]!).getByText('Solved')).toBeInTheDocument();
  });

  it('shows team boxes and team-completion icons to team members, Team Uncompleted on', async () => {
    serve(many(3), makeUser({ team: 'Red', team_id: '7' }), ['3']);
    renderPage(<CompetePage />);
    await screen.findByText('Page 1 of 1');
    expect(screen.getByLabelText('Team Uncompleted')).toBeChecked();
    expect(screen.getByLabelText('Team Completed')).not.toBeChecked();
    expect(await screen.findAllByText('Team not completed')).toHaveLength(2);
    expect(screen.queryByText('Challenge 3')).toBeNull();
    await userEvent.click(screen.getByLabelText('Team Uncompleted'));
    expect(cards()).toHaveLength(3);
    expect(within(cards()[2]!).getByText('Team completed')).toBeInTheDocument();
  });

  it('returns to page 1 on any filter change, and Clear Filters restores the defaults', async () => {
    serve(many(45).map((c, i) => ({ ...c, category: i < 30 ? 'General' : 'Cryptography' })));
    renderPage(<CompetePage />);
    await screen.findByText('Page 1 of 3');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(indicator()).toBe('Page 2 of 3');
    await userEvent.selectOptions(screen.getByLabelText('Category'), 'Cryptography');
    expect(indicator()).toBe('Page 1 of 1');
    expect(cards()).toHaveLength(15);
    await userEvent.click(screen.getByLabelText('My Completed'));
    await userEvent.selectOptions(screen.getByLabelText('Minimum rating'), '4');
    await userEvent.type(screen.getByLabelText('Search'), 'zzz');
    expect(screen.getByText(UI_TEXT.noChallenges)).toBeInTheDocument();
    expect(screen.getByText(UI_TEXT.adjustFilters)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect(screen.getByLabelText('Category')).toHaveValue('');
    expect(screen.getByLabelText('Minimum rating')).toHaveValue('0');
    expect(screen.getByLabelText('Search')).toHaveValue('');
    expect(screen.getByLabelText('My Completed')).not.toBeChecked();
    expect(screen.getByLabelText('My Uncompleted')).toBeChecked();
    expect(indicator()).toBe('Page 1 of 3');
  });

  it('offers the minimum rating options of docs/product.md §5 and filters by search text', async () => {
    serve([
      makeChallenge(1, { name: 'Alpha', rating: 4.2 }),
      makeChallenge(2, { name: 'Beta', written_by: 'Zoe' }),
    ]);
    renderPage(<CompetePage />);
    await screen.findByText('Page 1 of 1');
    const options = within(screen.getByLabelText('Minimum rating')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      '4.0 Excellent',
      '3.0 Good',
      '2.0 Fair',
      '1.0',
      '0.0 Any',
    ]);
    await userEvent.type(screen.getByLabelText('Search'), 'ZOE');
    expect(cards()).toHaveLength(1);
    expect(screen.getByText('Beta')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Search'));
    await userEvent.selectOptions(screen.getByLabelText('Author'), 'Zoe');
    expect(cards()).toHaveLength(1);
  });

  it('shows a card with its facts, a plain-text preview and a link', async () => {
    serve([
      makeChallenge(9, {
        name: 'Cookie Monster',
        description: `<h3>Intro</h3><p>${'x'.repeat(150)}</p>`,
        category: 'Web Exploitation',
        difficulty: 'Medium',
        written_by: '',
        rating: 4.46,
        points: 200,
        user_completions: 12,
      }),
    ]);
    renderPage(<CompetePage />);
    const card = (await screen.findAllByTestId('challenge-card'))[0]!;
    const q = within(card);
    expect(q.getByRole('link', { name: 'Cookie Monster' })).toHaveAttribute('href', '/challenge?id=9');
    expect(q.getByText('Web Exploitation')).toBeInTheDocument();
    expect(q.getByText('Medium')).toBeInTheDocument();
    expect(q.getByText(`by ${UI_TEXT.unknownAuthor}`)).toBeInTheDocument();
    expect(q.getByText('Rating: 4.5 / 5')).toBeInTheDocument();
    expect(q.getByText('Points: 200')).toBeInTheDocument();
    expect(q.getByText('Solves: 12')).toBeInTheDocument();
    expect(q.getByText(`Intro ${'x'.repeat(94)}...`)).toBeInTheDocument();
  });

  it('dims an inactive challenge, does not link it, and says it is out of order', async () => {
    serve([makeChallenge(1, { name: 'Broken', is_active: false }), makeChallenge(2, { name: 'Fine' })]);
    renderPage(<CompetePage />);
    const [broken, fine] = await screen.findAllByTestId('challenge-card');
    expect(broken).toHaveClass('inactive');
    expect(broken).toHaveAttribute('aria-disabled', 'true');
    expect(within(broken!).queryByRole('link')).toBeNull();
    expect(within(broken!).getByText(MESSAGES.challengeInactive)).toBeInTheDocument();
    expect(fine).not.toHaveClass('inactive');
    expect(within(fine!).getByRole('link', { name: 'Fine' })).toBeInTheDocument();
  });

  it("shows the server's message while the site is inactive, without asking for the refused list", async () => {
    const { calls } = mockApi({
      'GET /api/info/site': () => json({ activated: false }),
      'GET /api/user/info': () => json(makeUser()),
    });
    renderPage(<CompetePage />);
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.siteInactive);
    expect(screen.queryByLabelText('Search')).toBeNull();
    expect(calls.map((c) => c.key)).not.toContain('GET /api/ctf/challenges');
  });

  it('tells when a site that has not opened yet opens', async () => {
    const start = new Date(Date.now() + 45 * 60_000).toISOString();
    mockApi({
      'GET /api/info/site': () => json({ activated: false, eventStart: start, eventEnd: start }),
      'GET /api/user/info': () => json(makeUser()),
    });
    renderPage(<CompetePage />);
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.siteInactive);
    expect(await screen.findByTestId('opens-at')).toHaveTextContent(
      `The event opens on ${new Date(start).toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'short' })}.`,
    );
  });

  it("shows the list's refusal message when the site closed in between", async () => {
    serve({ status: 403, message: 'Closed for maintenance' });
    renderPage(<CompetePage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Closed for maintenance');
    expect(screen.queryByLabelText('Search')).toBeNull();
  });

  it('shows the empty state when there are no challenges', async () => {
    serve([]);
    renderPage(<CompetePage />);
    expect(await screen.findByText(UI_TEXT.noChallenges)).toBeInTheDocument();
    expect(screen.getByText(UI_TEXT.adjustFilters)).toBeInTheDocument();
    expect(screen.queryByTestId('page-indicator')).toBeNull();
  });
});
