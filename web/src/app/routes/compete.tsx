import { RequireUser } from '../../components/Guards';
import { CompetePage } from '../../features/challenges/components/CompetePage';

export default function CompeteRoute() {
  return (
    <RequireUser>
      <CompetePage />
    </RequireUser>
  );
}
