import { ChallengeHelpPage } from '../../features/help/components/ChallengeHelpPage';

export default function ChallengeHelpRoute() {
  return <ChallengeHelpPage />;
}
