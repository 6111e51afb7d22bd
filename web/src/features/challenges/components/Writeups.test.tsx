import { MESSAGES, type ChallengeDetail, type MyWriteup, type SiteInfo } from '@ctf/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SITE } from '../../../test/factories';
import { json, makeUser, mockApi, renderPage } from '../testing';
import { ChallengePage } from './ChallengePage';

afterEach(() => vi.unstubAllGlobals());

const detail: ChallengeDetail = {
  _id: '5',
  name: 'Hidden Cookie',
  category: 'Web Exploitation',
  difficulty: 'Medium',
  description: '<p>Find the cookie.</p>',
  rating: 0,
  points: 200,
  scoring_type: 'static',
  written_by: 'Mallory',
  hlinks: [],
  user_completions: 1,
  first_blood: null,
  hints: [],
  attempts_left: null,
};
const solved = makeUser({ completions: [{ id: '5', name: 'Hidden Cookie', time: '2025-10-15T01:00:00Z' }] });
const future = new Date(Date.now() + 86_400_000).toISOString();
const past = new Date(Date.now() - 86_400_000).toISOString();
const openSite = (extra: Partial<SiteInfo> = {}): SiteInfo => ({
  ...SITE,
  eventEnd: future,
  writeups: { open: true, deadline: '2099-01-02T03:04:00.000Z', note: 'One per challenge, please.' },
  ...extra,
});

describe('solutions and writeups on the challenge page (issue 32)', { timeout: 20_000 }, () => {
  it('shows the solution the server sent under "Solution", sanitised, with its files', async () => {
    mockApi({
      'POST /api/ctf/challenge': () =>
        json({
          ...detail,
          solution_html: '<h1>How</h1><img src=x onerror="window.__pwned=1">',
          solution_files: ['solve.zip'],
        }),
      'GET /api/user/info': () => json(makeUser()),
      'GET /api/info/site': () => json({ ...SITE, eventEnd: future }),
    });
    renderPage(<ChallengePage />, '/challenge?id=5');
    const section = await screen.findByRole('region', { name: 'Solution' });
    expect(within(section).getByRole('heading', { name: 'How' })).toBeInTheDocument();
    expect(section.innerHTML).not.toContain('onerror');
    expect(within(section).getByRole('link', { name: 'solve.zip' })).toHaveAttribute(
      'href',
      '/api/ctf/download/solve.zip',
    );
  });

  it('hands in a link, shows what was handed in, the note and the deadline; refuses a wrong file before sending', async () => {
    const handedIn: MyWriteup[] = [];
    const api = mockApi({
      'POST /api/ctf/challenge': () => json(detail),
      'GET /api/user/info': () => json(solved),
      'GET /api/info/site': () => json(openSite()),
      'GET /api/user/writeups': () => json(handedIn),
      'POST /api/ctf/writeup': (body) => {
        const form = body as FormData;
        handedIn.push({
          _id: '9',
          challenge_id: String(form.get('challenge_id')),
          url: String(form.get('url')),
          submittedAt: '2025-10-16T12:00:00.000Z',
          reviewed: false,
          published: false,
        });
        return json({ _id: '9' });
      },
    });
    renderPage(<ChallengePage />, '/challenge?id=5');
    const section = await screen.findByRole('region', { name: 'Your writeup' });
    expect(section).toHaveTextContent('One per challenge, please.');
    expect(
      within(section).getByText(
        new Date('2099-01-02T03:04:00.000Z').toLocaleString(undefined, {
          dateStyle: 'medium',
          timeStyle: 'short',
        }),
      ),
    ).toBeInTheDocument();
    await userEvent.type(within(section).getByLabelText('Link to your writeup'), 'http://example.org');
    await userEvent.click(within(section).getByRole('button', { name: 'Hand in writeup' }));
    expect(within(section).getByTestId('writeup-error')).toHaveTextContent(MESSAGES.writeupLinkNotHttps);
    expect(api.count('POST /api/ctf/writeup')).toBe(0);
    await userEvent.clear(within(section).getByLabelText('Link to your writeup'));
    await userEvent.type(within(section).getByLabelText('Link to your writeup'), 'https://example.org/mine');
    await userEvent.click(within(section).getByRole('button', { name: 'Hand in writeup' }));
    expect(await within(section).findByTestId('writeup-saved')).toHaveTextContent(
      'Your writeup was handed in.',
    );
    const form = api.bodyOf('POST /api/ctf/writeup') as FormData;
    expect([...form.keys()]).toEqual(['challenge_id', 'url']);
    expect(await within(section).findByTestId('current-writeup')).toHaveTextContent(
      'https://example.org/mine',
    );
    expect(within(section).getByRole('button', { name: 'Replace writeup' })).toBeInTheDocument();
    // A file that is neither PDF nor Markdown is refused in the browser too.
    await userEvent.click(within(section).getByLabelText('A file'));
    // (The picker's accept list would hide it; a player can still choose "All files".)
    await userEvent.setup({ applyAccept: false }).upload(
      within(section).getByLabelText('PDF or Markdown file (at most 5 MB)'),
      new File(['<html>'], 'evil.html', { type: 'text/html' }),
    );
    await userEvent.click(within(section).getByRole('button', { name: 'Replace writeup' }));
    expect(within(section).getByTestId('writeup-error')).toHaveTextContent(MESSAGES.writeupFileType);
    expect(api.count('POST /api/ctf/writeup')).toBe(1);
  });

  it('shows no writeup form once collection closed, and after the event the published writeups', async () => {
    const calls = mockApi({
      'POST /api/ctf/challenge': () => json(detail),
      'GET /api/user/info': () => json(solved),
      'GET /api/info/site': () =>
        json(openSite({ eventEnd: past, writeups: { open: false, deadline: null, note: '' } })),
      'GET /api/info/writeups?challenge_id=5': () =>
        json([
          {
            _id: '3',
            challenge_id: '5',
            competitor: 'Red',
            file: {
              name: 'red.pdf',
              size: 9,
              type: 'application/pdf',
              href: '/api/ctf/writeup/file?writeup_id=3',
            },
            submittedAt: '2025-10-16T12:00:00.000Z',
          },
          {
            _id: '4',
            challenge_id: '5',
            competitor: 'Blue',
            url: 'https://blue.example/w',
            submittedAt: '2025-10-16T12:00:00.000Z',
          },
        ]),
    });
    renderPage(<ChallengePage />, '/challenge?id=5');
    const list = await screen.findByRole('region', { name: 'Writeups' });
    expect(within(list).getByRole('link', { name: 'red.pdf' })).toHaveAttribute(
      'href',
      '/api/ctf/writeup/file?writeup_id=3',
    );
    expect(within(list).getByRole('link', { name: 'https://blue.example/w' })).toHaveAttribute(
      'rel',
      'noopener noreferrer nofollow',
    );
    await waitFor(() => expect(calls.count('GET /api/info/writeups?challenge_id=5')).toBe(1));
    expect(screen.queryByRole('region', { name: 'Your writeup' })).toBeNull();
  });

  it('shows no writeup form to a competitor that has not solved the challenge', async () => {
    mockApi({
      'POST /api/ctf/challenge': () => json(detail),
      'GET /api/user/info': () => json(makeUser()),
      'GET /api/info/site': () => json(openSite()),
    });
    renderPage(<ChallengePage />, '/challenge?id=5');
    expect(await screen.findByRole('heading', { level: 1, name: 'Hidden Cookie' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Flag')).toBeInTheDocument());
    expect(screen.queryByRole('region', { name: 'Your writeup' })).toBeNull();
  });
});
