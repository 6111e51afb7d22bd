import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { makeChallenge } from '../../../test/factories';
import { ChallengeCard } from './ChallengeCard';

describe('first blood on a challenge card', () => {
  it('names the competitor who solved it first', () => {
    render(
      <MemoryRouter>
        <ChallengeCard challenge={makeChallenge(1, { first_blood: 'Rooks' })} solved={false} teamDone={null} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('first-blood')).toHaveTextContent('First blood: Rooks');
  });

  it('shows nothing before anyone solved it', () => {
    render(
      <MemoryRouter>
        <ChallengeCard challenge={makeChallenge(1)} solved={false} teamDone={null} />
      </MemoryRouter>,
    );
    expect(screen.queryByTestId('first-blood')).toBeNull();
  });
});
