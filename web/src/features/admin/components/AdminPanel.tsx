import { useState, type ReactNode } from 'react';
import { Container, Tab, Tabs } from 'react-bootstrap';
import { useAdminAction } from '../use-admin-action';
import { AdminMessageView } from './AdminMessageView';
import { AdminsTab } from './AdminsTab';
import { AnnouncementsTab } from './AnnouncementsTab';
import { AuditTab } from './AuditTab';
import { AwardsTab } from './AwardsTab';
import { ImportExportTab } from './ImportExportTab';
import { InstancesTab } from './InstancesTab';
import { IntegrityTab } from './IntegrityTab';
import { SubmissionsTab } from './SubmissionsTab';
import { CreateChallengeTab } from './CreateChallengeTab';
import { SettingsTab } from './SettingsTab';
import { SetupChecklist } from './SetupChecklist';
import { ScoreboardControls } from './ScoreboardControls';
import { SiteControls } from './SiteControls';
import { SolversTab } from './SolversTab';
import { TeamsTab } from './TeamsTab';
import { UploadTab } from './UploadTab';
import { UsersTab } from './UsersTab';
import { ViewChallengesTab } from './ViewChallengesTab';

/**
 * docs/product.md §2 admin panel: the site toggle, the message area and the tabs. A tab's content mounts
 * when first opened, so each list loads only when it is looked at.
 */
export function AdminPanel() {
  const { message, act } = useAdminAction();
  const [tab, setTab] = useState('users');
  // A signal's evidence opens the Submissions tab afresh on its rows (the key remounts it).
  const [evidence, setEvidence] = useState<{ ids: string[]; seq: number }>({ ids: [], seq: 0 });
  return (
    <Container className="py-4">
      <h1 className="mb-3">Admin Panel</h1>
      <SetupChecklist act={act} onOpenSettings={() => setTab('settings')} />
      <SiteControls act={act} />
      <ScoreboardControls act={act} />
      <AdminMessageView message={message} />
      <Tabs
        activeKey={tab}
        onSelect={(key) => key && setTab(key)}
        id="admin-tabs"
        className="my-3"
        mountOnEnter
      >
        {[
          panelTab('users', 'Users', <UsersTab act={act} />),
          panelTab('teams', 'Teams', <TeamsTab act={act} />),
          panelTab('admins', 'Admins', <AdminsTab act={act} />),
          panelTab('awards', 'Awards', <AwardsTab act={act} />),
          panelTab('solvers', 'Solvers', <SolversTab />),
          panelTab('view-challenges', 'View Challenges', <ViewChallengesTab act={act} />),
          panelTab('create-challenge', 'Create Challenge', <CreateChallengeTab act={act} />),
          panelTab('upload', 'Upload', <UploadTab act={act} />),
          panelTab('import-export', 'Import / Export', <ImportExportTab />),
          panelTab('instances', 'Instances', <InstancesTab act={act} />),
          panelTab('announcements', 'Announcements', <AnnouncementsTab act={act} />),
          panelTab(
            'submissions',
            'Submissions',
            <SubmissionsTab key={evidence.seq} evidence={evidence.ids} />,
          ),
          panelTab(
            'integrity',
            'Integrity',
            <IntegrityTab
              onShowEvidence={(ids) => {
                setEvidence((e) => ({ ids, seq: e.seq + 1 }));
                setTab('submissions');
              }}
            />,
          ),
          panelTab('audit', 'Audit', <AuditTab />),
          panelTab('settings', 'Settings', <SettingsTab act={act} />),
        ]}
      </Tabs>
    </Container>
  );
}

/** One tab of the panel: its key (the active tab's state) and title. */
function panelTab(eventKey: string, title: string, content: ReactNode) {
  return (
    <Tab key={eventKey} eventKey={eventKey} title={title}>
      {content}
    </Tab>
  );
}
