import { useState } from 'react';
import { Container, Nav, Tab } from 'react-bootstrap';
import { adminApi } from '@ctf/contract';
import { useSearchParams } from 'react-router';
import { PageLoading } from '../../../components/PageLoading';
import { useCurrentUser } from '../../../lib/auth';
import { SAME_PAGE } from '../../../lib/same-page';
import { sectionsFor, type PanelContext } from '../panel-registry';
import { StaffRoleContext, useMayCall } from '../staff-role';
import { useAdminAction } from '../use-admin-action';
import { AdminMessageView } from './AdminMessageView';
import { ScoreboardControls } from './ScoreboardControls';
import { SetupChecklist } from './SetupChecklist';
import { SiteControls } from './SiteControls';

/**
 * docs/product.md §2 admin panel: the site toggle, the message area and the tabs, grouped in
 * sections (panel-registry.tsx). Each tab has its own URL (?tab=ID): a reload or a shared link
 * opens it, and the back button returns to the tab before. A role sees only the tabs and buttons
 * the authorisation table lets it use. A tab's content mounts when first opened.
 */
export function AdminPanel() {
  const me = useCurrentUser();
  if (me.isPending) return <PageLoading />;
  return (
    <StaffRoleContext.Provider value={me.data?.role ?? 'player'}>
      <PanelBody />
    </StaffRoleContext.Provider>
  );
}

function PanelBody() {
  const { message, act } = useAdminAction();
  const may = useMayCall();
  const sections = sectionsFor(may);
  const [params, setParams] = useSearchParams();
  const ids = sections.flatMap((s) => s.tabs.map((t) => t.id));
  const asked = params.get('tab');
  const tab = asked && ids.includes(asked) ? asked : ids[0];
  const openTab = (id: string) => setParams({ tab: id }, SAME_PAGE);
  // A signal's evidence opens the Submissions tab afresh on its rows (the key remounts it).
  const [evidence, setEvidence] = useState<{ ids: string[]; seq: number }>({ ids: [], seq: 0 });
  const ctx: PanelContext = {
    act,
    openTab,
    evidence,
    showEvidence: (rows) => {
      setEvidence((e) => ({ ids: rows, seq: e.seq + 1 }));
      openTab('submissions');
    },
  };
  const isAdmin = may(adminApi.updateSiteInfo);
  return (
    <Container className="py-4">
      <h1 className="mb-3">Admin Panel</h1>
      {isAdmin && (
        <>
          <SetupChecklist act={act} onOpenSettings={() => openTab('settings')} />
          <SiteControls act={act} />
        </>
      )}
      {/* The freeze for an admin; the exports also for a monitor. */}
      {may(adminApi.exportScoreboardCsv) && <ScoreboardControls act={act} />}
      <AdminMessageView message={message} />
      {tab === undefined ? (
        <p>Your role has no tab in this panel.</p>
      ) : (
        <Tab.Container id="admin-tabs" activeKey={tab} onSelect={(key) => key && openTab(key)} mountOnEnter>
          <nav
            aria-label="Admin sections"
            className="admin-sections my-3 d-flex flex-wrap gap-3"
            onKeyDownCapture={(e) => {
              const next = tabAfterKey(e.key, ids, tab);
              if (next === null) return;
              // One set of tabs across the sections: the arrows go on from a section's last tab to
              // the next section's first (each section's own list would stop at its edge).
              e.preventDefault();
              e.stopPropagation();
              document.getElementById(`admin-tabs-tab-${next}`)?.focus();
              openTab(next);
            }}
          >
            {sections.map((section) => (
              <div key={section.id} role="group" aria-labelledby={`admin-section-${section.id}`}>
                <h2 id={`admin-section-${section.id}`} className="h6 text-body-secondary mb-1">
                  {section.title}
                </h2>
                <Nav variant="pills" className="flex-wrap" role="tablist">
                  {section.tabs.map((t) => (
                    <Nav.Item key={t.id}>
                      <Nav.Link eventKey={t.id}>{t.title}</Nav.Link>
                    </Nav.Item>
                  ))}
                </Nav>
              </div>
            ))}
          </nav>
          <Tab.Content>
            {sections.flatMap((s) =>
              s.tabs.map((t) => (
                <Tab.Pane key={t.id} eventKey={t.id}>
                  {t.render(ctx)}
                </Tab.Pane>
              )),
            )}
          </Tab.Content>
        </Tab.Container>
      )}
    </Container>
  );
}

/** The tab the arrow keys, Home and End move to from `current`, wrapping round; null for other keys. */
export function tabAfterKey(key: string, ids: string[], current: string): string | null {
  const at = ids.indexOf(current);
  const step: Record<string, number> = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1 };
  if (key === 'Home') return ids[0] ?? null;
  if (key === 'End') return ids[ids.length - 1] ?? null;
  if (!(key in step) || ids.length === 0) return null;
  return ids[(step[key]! + ids.length) % ids.length] ?? null;
}
