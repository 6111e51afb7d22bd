import { Container } from 'react-bootstrap';
import { useSearchParams } from 'react-router';
import { AfterIdle } from '../../components/AfterIdle';
import { RequireUser } from '../../components/Guards';
import { PracticeSolves } from '../../features/profile/components/PracticeSolves';
import { ProfileView } from '../../features/profile/components/ProfileView';
import { StatsWidget } from '../../features/stats/components/StatsWidget';
import { TeamPage } from '../../features/teams/components/TeamPage';

/** /profile: the profile page, or with mode=1 the team page (any other mode is the profile). */
export default function ProfileRoute() {
  const [params] = useSearchParams();
  const mode = params.get('mode');
  return (
    <RequireUser>
      <Container>
        {mode === '1' && <TeamPage />}
        {mode !== '1' && (
          <>
            <ProfileView />
            {/* Below the profile: drawn once the browser is idle, each in a task of its own. */}
            <AfterIdle>
              <StatsWidget />
            </AfterIdle>
            <AfterIdle>
              <PracticeSolves />
            </AfterIdle>
          </>
        )}
      </Container>
    </RequireUser>
  );
}
