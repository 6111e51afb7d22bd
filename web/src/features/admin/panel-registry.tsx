import {
  adminApi,
  announcementsApi,
  awardsApi,
  instancesApi,
  integrityApi,
  settingsApi,
  writeupsApi,
} from '@ctf/contract';
import type { ReactNode } from 'react';
import type { AdminAct } from './use-admin-action';
import { AdminsTab } from './components/AdminsTab';
import { AnnouncementsTab } from './components/AnnouncementsTab';
import { AuditTab } from './components/AuditTab';
import { AwardsTab } from './components/AwardsTab';
import { CreateChallengeTab } from './components/CreateChallengeTab';
import { ImportExportTab } from './components/ImportExportTab';
import { InstancesTab } from './components/InstancesTab';
import { IntegrityTab } from './components/IntegrityTab';
import { SettingsTab } from './components/SettingsTab';
import { SolversTab } from './components/SolversTab';
import { SubmissionsTab } from './components/SubmissionsTab';
import { TeamsTab } from './components/TeamsTab';
import { UploadTab } from './components/UploadTab';
import { UsersTab } from './components/UsersTab';
import { ViewChallengesTab } from './components/ViewChallengesTab';
import { WriteupsTab } from './components/WriteupsTab';

/** What a tab's content may use from the panel. */
export interface PanelContext {
  act: AdminAct;
  /** Opens another tab (its id), as a link would. */
  openTab: (id: string) => void;
  /** A signal's evidence: the Submissions tab shows these rows (seq remounts it). */
  evidence: { ids: string[]; seq: number };
  showEvidence: (ids: string[]) => void;
}

export interface PanelTab {
  /** The tab's URL: /admin/panel?tab=<id>. */
  id: string;
  title: string;
  /** The call the tab is built on: a role the authorisation table refuses it does not see the tab. */
  opens: { method: 'GET' | 'POST'; path: string };
  render: (ctx: PanelContext) => ReactNode;
}

export interface PanelSection {
  id: string;
  title: string;
  tabs: PanelTab[];
}

/**
 * THE admin panel's sections and tabs, in order: one list that a new capability adds its tab to
 * (a row here, nothing else). Each role sees the tabs whose call the authorisation table lets it
 * make, and a section with none is left out.
 */
export const PANEL_SECTIONS: PanelSection[] = [
  {
    id: 'people',
    title: 'People',
    tabs: [
      { id: 'users', title: 'Users', opens: adminApi.getUsers, render: ({ act }) => <UsersTab act={act} /> },
      { id: 'teams', title: 'Teams', opens: adminApi.getTeams, render: ({ act }) => <TeamsTab act={act} /> },
      {
        id: 'admins',
        title: 'Admins',
        opens: adminApi.fetchAdmins,
        render: ({ act }) => <AdminsTab act={act} />,
      },
      {
        id: 'awards',
        title: 'Awards',
        opens: awardsApi.listAwards,
        render: ({ act }) => <AwardsTab act={act} />,
      },
    ],
  },
  {
    id: 'challenges',
    title: 'Challenges',
    tabs: [
      {
        id: 'view-challenges',
        title: 'View Challenges',
        opens: adminApi.fetchChallenges,
        render: ({ act }) => <ViewChallengesTab act={act} />,
      },
      {
        id: 'create-challenge',
        title: 'Create Challenge',
        opens: adminApi.createChallenge,
        render: ({ act }) => <CreateChallengeTab act={act} />,
      },
      { id: 'upload', title: 'Upload', opens: adminApi.upload, render: ({ act }) => <UploadTab act={act} /> },
      {
        id: 'import-export',
        title: 'Import / Export',
        opens: adminApi.importChallenges,
        render: () => <ImportExportTab />,
      },
      { id: 'solvers', title: 'Solvers', opens: adminApi.getSolvers, render: () => <SolversTab /> },
    ],
  },
  {
    id: 'event',
    title: 'Event',
    tabs: [
      {
        id: 'announcements',
        title: 'Announcements',
        opens: announcementsApi.adminAnnouncements,
        render: ({ act }) => <AnnouncementsTab act={act} />,
      },
      {
        id: 'instances',
        title: 'Instances',
        opens: instancesApi.adminInstances,
        render: ({ act }) => <InstancesTab act={act} />,
      },
      {
        id: 'writeups',
        title: 'Writeups',
        opens: writeupsApi.adminWriteups,
        render: ({ act }) => <WriteupsTab act={act} />,
      },
      {
        id: 'settings',
        title: 'Settings',
        opens: settingsApi.getSettings,
        render: ({ act }) => <SettingsTab act={act} />,
      },
    ],
  },
  {
    id: 'integrity',
    title: 'Integrity',
    tabs: [
      {
        id: 'submissions',
        title: 'Submissions',
        opens: integrityApi.getSubmissions,
        render: ({ evidence }) => <SubmissionsTab key={evidence.seq} evidence={evidence.ids} />,
      },
      {
        id: 'integrity',
        title: 'Integrity',
        opens: integrityApi.getSignals,
        render: ({ showEvidence }) => <IntegrityTab onShowEvidence={showEvidence} />,
      },
      { id: 'audit', title: 'Audit', opens: integrityApi.getAudit, render: () => <AuditTab /> },
    ],
  },
];

/** The sections as a role sees them: only the tabs it may open, and no empty section. */
export function sectionsFor(may: (route: PanelTab['opens']) => boolean): PanelSection[] {
  return PANEL_SECTIONS.map((s) => ({ ...s, tabs: s.tabs.filter((t) => may(t.opens)) })).filter(
    (s) => s.tabs.length > 0,
  );
}
