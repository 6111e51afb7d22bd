import { useState } from 'react';
import { Container, Tab, Tabs } from 'react-bootstrap';
import { useAdminAction } from '../use-admin-action';
import { AdminMessageView } from './AdminMessageView';
import { AdminsTab } from './AdminsTab';
import { AnnouncementsTab } from './AnnouncementsTab';
import { AuditTab } from './AuditTab';
import { ImportExportTab } from './ImportExportTab';
import { IntegrityTab } from './IntegrityTab';
import { SubmissionsTab } from './SubmissionsTab';
import { CreateChallengeTab } from './CreateChallengeTab';
import { SettingsTab } from './SettingsTab';
import { ScoreboardControls } from './ScoreboardControls';
import { SiteControls } from './SiteControls';
import { SolversTab } from './SolversTab';
import { TeamsTab } from './TeamsTab';
import { UploadTab } from './UploadTab';
import { UsersTab } from './UsersTab';
import { ViewChallengesTab } from './ViewChallengesTab';

/**
 * SPEC.md §2 admin panel: the site toggle, the message area and seven tabs. A tab's content mounts
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
        <Tab eventKey="users" title="Users">
          <UsersTab act={act} />
        </Tab>
        <Tab eventKey="teams" title="Teams">
          <TeamsTab act={act} />
        </Tab>
        <Tab eventKey="admins" title="Admins">
          <AdminsTab act={act} />
        </Tab>
        <Tab eventKey="solvers" title="Solvers">
          <SolversTab />
        </Tab>
        <Tab eventKey="view-challenges" title="View Challenges">
          <ViewChallengesTab act={act} />
        </Tab>
        <Tab eventKey="create-challenge" title="Create Challenge">
          <CreateChallengeTab act={act} />
        </Tab>
        <Tab eventKey="upload" title="Upload">
          <UploadTab act={act} />
        </Tab>
        <Tab eventKey="import-export" title="Import / Export">
          <ImportExportTab />
        </Tab>
        <Tab eventKey="announcements" title="Announcements">
          <AnnouncementsTab act={act} />
        </Tab>
        <Tab eventKey="submissions" title="Submissions">
          <SubmissionsTab key={evidence.seq} evidence={evidence.ids} />
        </Tab>
        <Tab eventKey="integrity" title="Integrity">
          <IntegrityTab
            onShowEvidence={(ids) => {
              setEvidence((e) => ({ ids, seq: e.seq + 1 }));
              setTab('submissions');
            }}
          />
        </Tab>
        <Tab eventKey="audit" title="Audit">
          <AuditTab />
        </Tab>
        <Tab eventKey="settings" title="Settings">
          <SettingsTab act={act} />
        </Tab>
      </Tabs>
    </Container>
  );
}
