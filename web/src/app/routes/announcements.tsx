import { AnnouncementsPage } from '../../features/announcements/components/AnnouncementsPage';

export default function AnnouncementsRoute() {
  return <AnnouncementsPage />;
}
