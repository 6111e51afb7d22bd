import { INSTANCE_MESSAGES, type ChallengeDetail, type InstanceState } from '@ctf/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, makeUser, mockApi, renderPage } from '../testing';
import { ChallengePage } from './ChallengePage';
import { timeLeft } from './InstancePanel';

afterEach(() => vi.unstubAllGlobals());

const detail: ChallengeDetail = {
  _id: '5',
  name: 'Box',
  category: 'Binary Exploitation',
  difficulty: 'Medium',
  description: '<p>Connect to your instance.</p>',
  rating: 0,
  points: 200,
  scoring_type: 'static',
  written_by: 'Mallory',
  hlinks: [],
  user_completions: 0,
  first_blood: null,
  hints: [],
  attempts_left: null,
  instance: true,
};
const expiresAt = new Date(Date.now() + 29 * 60_000 + 30_000).toISOString();
const starting: InstanceState = {
  status: 'starting',
  host: 'chal.example.org',
  ports: [{ port: 30123, protocol: 'tcp' }],
  expiresAt,
};
const running: InstanceState = {
  ...starting,
  status: 'running',
  ports: [
    { port: 30123, protocol: 'tcp' },
    { port: 30124, protocol: 'http', url: 'http://chal.example.org:30124/' },
  ],
};
const GET = 'GET /api/ctf/instance?challenge_id=5';

describe('the instance panel', { timeout: 20_000 }, () => {
  it('starts the team’s instance, waits until it answers, shows where to connect, renews and stops it', async () => {
    let current: InstanceState | null = null;
    const api = mockApi({
      'POST /api/ctf/challenge': () => json(detail),
      'GET /api/user/info': () => json(makeUser()),
      'GET /api/info/completions': () => json({ userCompletions: [], teamCompletions: [] }),
      [GET]: () => (current ? json(current) : json({ message: INSTANCE_MESSAGES.none }, 404)),
      'POST /api/ctf/instance/start': () => {
        current = starting;
        return json(starting);
      },
      'POST /api/ctf/instance/renew': () => json(running),
      'POST /api/ctf/instance/stop': () => {
        current = null;
        return json({ message: INSTANCE_MESSAGES.stopped });
      },
    });
    renderPage(<ChallengePage />, '/challenge?id=5');
    await userEvent.click(await screen.findByRole('button', { name: 'Start instance' }));
    expect(api.bodyOf('POST /api/ctf/instance/start')).toEqual({ challenge_id: '5' });
    expect(await screen.findByTestId('instance-starting')).toHaveTextContent('waiting until it answers');

    current = running;
    const addresses = await screen.findByTestId('instance-addresses', {}, { timeout: 5000 });
    expect(addresses).toHaveTextContent('nc chal.example.org 30123');
    expect(screen.getByRole('link', { name: 'http://chal.example.org:30124/' })).toHaveAttribute(
      'href',
      'http://chal.example.org:30124/',
    );
    expect(screen.getByTestId('instance-time-left').textContent).toMatch(/^29:[0-9]{2}$/);

    await userEvent.click(screen.getByRole('button', { name: 'Renew' }));
    await waitFor(() => expect(api.count('POST /api/ctf/instance/renew')).toBe(1));
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(await screen.findByRole('button', { name: 'Start instance' })).toBeInTheDocument();
  });

  it('says when a start failed and shows a refusal’s message', async () => {
    mockApi({
      'POST /api/ctf/challenge': () => json(detail),
      'GET /api/user/info': () => json(makeUser()),
      'GET /api/info/completions': () => json({ userCompletions: [], teamCompletions: [] }),
      [GET]: () => json({ message: INSTANCE_MESSAGES.failed }, 503),
      'POST /api/ctf/instance/start': () => json({ message: INSTANCE_MESSAGES.perTeamLimit(3) }, 409),
    });
    renderPage(<ChallengePage />, '/challenge?id=5');
    expect(await screen.findByTestId('instance-failed')).toHaveTextContent(INSTANCE_MESSAGES.failed);
    await userEvent.click(screen.getByRole('button', { name: 'Start instance' }));
    expect(await screen.findByTestId('instance-error')).toHaveTextContent(INSTANCE_MESSAGES.perTeamLimit(3));
  });

  it('counts the time left down to zero', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(timeLeft('2026-01-01T00:30:00Z', now)).toBe('30:00');
    expect(timeLeft('2026-01-01T01:30:05Z', now)).toBe('1:30:05');
    expect(timeLeft('2025-12-31T23:00:00Z', now)).toBe('0:00');
  });
});
