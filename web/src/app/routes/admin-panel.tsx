import { RequireAdmin } from '../../components/Guards';
import { AdminPanel } from '../../features/admin/components/AdminPanel';

export default function AdminPanelRoute() {
  return (
    <RequireAdmin>
      <AdminPanel />
    </RequireAdmin>
  );
}
