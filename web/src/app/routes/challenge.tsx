import { RequireUser } from '../../components/Guards';
import { ChallengePage } from '../../features/challenges/components/ChallengePage';

export default function ChallengeRoute() {
  return (
    <RequireUser>
      <ChallengePage />
    </RequireUser>
  );
}
