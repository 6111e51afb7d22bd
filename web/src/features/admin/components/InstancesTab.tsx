import { instancesApi, type AdminInstance } from '@ctf/contract';
import { useMayCall } from '../staff-role';
import { useEffect, useState } from 'react';
import { Badge, Button } from 'react-bootstrap';
import { stopInstance, useAdminInstances } from '../api/instances';
import type { AdminAct } from '../use-admin-action';
import { AdminTable, type AdminColumn } from './AdminTable';
import { QueryState } from './QueryState';

const STATE_VARIANT: Record<AdminInstance['state'], string> = {
  starting: 'info',
  running: 'success',
  failed: 'danger',
  stopping: 'secondary',
};

/** "3 min", "1 h 12 min": how long ago `iso` was. */
export function ageText(iso: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * Every team's container (issue 30): team, challenge, age, address and state, with Stop; a failed
 * pull or start shows the engine's own message (a missing image is named there).
 */
export function InstancesTab({ act }: { act: AdminAct }) {
  const instances = useAdminInstances();
  const may = useMayCall();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const columns: AdminColumn<AdminInstance>[] = [
    { header: 'Team', cell: (i) => i.team },
    { header: 'Challenge', cell: (i) => i.challenge },
    { header: 'Age', cell: (i) => ageText(i.created_at, now) },
    {
      header: 'Address',
      cell: (i) =>
        i.addresses.length === 0
          ? '—'
          : i.addresses.map((a) => (
              <code key={a} className="d-block">
                {a}
              </code>
            )),
    },
    {
      header: 'State',
      cell: (i) => (
        <>
          <Badge bg={STATE_VARIANT[i.state]}>{i.state}</Badge>
          {i.error && (
            <div className="small text-danger mt-1" data-testid="instance-error">
              {i.error}
            </div>
          )}
        </>
      ),
    },
  ];
  // A monitor reads the list; Stop and Dismiss are an admin's.
  if (may(instancesApi.adminStopInstance))
    columns.push({
      header: 'Actions',
      hideHeader: true,
      end: true,
      cell: (i) => (
        <Button
          size="sm"
          variant="outline-danger"
          aria-label={`${i.state === 'failed' ? 'Dismiss' : 'Stop'} the instance of ${i.team} for ${i.challenge}`}
          disabled={i.state === 'stopping'}
          onClick={() => void act(() => stopInstance(i._id))}
        >
          {i.state === 'failed' ? 'Dismiss' : 'Stop'}
        </Button>
      ),
    });
  return (
    <QueryState query={instances} what="instances">
      {(list) => (
        <AdminTable
          label="Instances"
          columns={columns}
          rows={list}
          rowKey={(i) => i._id}
          search={{ label: 'Search instances', text: (i) => `${i.team} ${i.challenge} ${i.state}` }}
          summary={
            list.length > 0 && (
              <p>
                Instances: <strong>{list.length}</strong> (running:{' '}
                <strong>{list.filter((i) => i.state === 'running').length}</strong>)
              </p>
            )
          }
          empty={<p>No instances running.</p>}
        />
      )}
    </QueryState>
  );
}
