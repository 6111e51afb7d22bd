import { RequireUser } from '../../components/Guards';
import { RateChallengePage } from '../../features/challenges/components/RateChallengePage';

export default function RateChallengeRoute() {
  return (
    <RequireUser>
      <RateChallengePage />
    </RequireUser>
  );
}
