import { KaliGuidePage } from '../../features/help/components/KaliGuidePage';

export default function KaliGuideRoute() {
  return <KaliGuidePage />;
}
