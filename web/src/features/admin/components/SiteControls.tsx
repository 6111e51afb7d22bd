import { useState } from 'react';
import { Button } from 'react-bootstrap';
import { forceUpdate, updateSiteInfo, useAdminSiteInfo } from '../api/site';
import { QueryError } from '../../../components/QueryError';
import type { AdminAct } from '../use-admin-action';

/** The site activation toggle ('Site Active' / 'Site Inactive') and Force Update. */
export function SiteControls({ act }: { act: AdminAct }) {
  const site = useAdminSiteInfo();
  const [busy, setBusy] = useState(false);
  const activated = site.data?.activated === true;

  async function run(call: Parameters<AdminAct>[0]) {
    if (busy) return;
    setBusy(true);
    try {
      await act(call);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="d-flex flex-wrap gap-2 align-items-center">
      <Button
        variant={activated ? 'success' : 'secondary'}
        aria-pressed={activated}
        disabled={!site.data}
        aria-disabled={busy}
        onClick={() => void run(() => updateSiteInfo(!activated))}
        title={
          activated
            ? 'Participants can play. Click to close the site.'
            : 'Participants cannot play. Click to open the site.'
        }
      >
        {activated ? 'Site Active' : 'Site Inactive'}
      </Button>
      <Button variant="outline-primary" aria-disabled={busy} onClick={() => void run(forceUpdate)}>
        Force Update
      </Button>
      {site.isError && (
        <QueryError
          what="the site status"
          error={site.error}
          onRetry={() => site.refetch()}
          className="w-100 mb-0"
        />
      )}
    </div>
  );
}
