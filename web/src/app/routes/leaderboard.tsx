import { RequireUser } from '../../components/Guards';
import { LeaderboardPage } from '../../features/leaderboard/components/LeaderboardPage';

export default function LeaderboardRoute() {
  return (
    <RequireUser>
      <LeaderboardPage />
    </RequireUser>
  );
}
