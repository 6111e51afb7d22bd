import { instancesApi, type AdminInstance } from '@ctf/contract';
import { useMayCall, useStaffRole } from '../staff-role';
import { useEffect, useState } from 'react';
import { Alert, Badge, Button } from 'react-bootstrap';
import { stopInstance, useAdminInstances, useEngineStatus } from '../api/instances';
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
 * Every team's container: team, challenge, age, address (admins only: a monitor sees team and
 * state) and state, with Stop; a failed pull or start shows the engine's own message (a missing
 * image is named there), and an engine that does not answer is said so above the list.
 */
export function InstancesTab({ act }: { act: AdminAct }) {
  const instances = useAdminInstances();
  const engine = useEngineStatus().data;
  const may = useMayCall();
  const role = useStaffRole();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const columns: AdminColumn<AdminInstance>[] = [
    { header: 'Team', cell: (i) => i.team },
    { header: 'Challenge', cell: (i) => i.challenge },
    { header: 'Age', cell: (i) => ageText(i.created_at, now) },
  ];
  // The address is the team's and the admins' only (the server sends none to other roles).
  if (role === 'admin')
    columns.push({
      header: 'Address',
      cell: (i) =>
        i.addresses.length === 0
          ? '—'
          : i.addresses.map((a) => (
              <code key={a} className="d-block">
                {a}
              </code>
            )),
    });
  columns.push({
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
  });
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
    <>
      {engine && !engine.reachable && (
        <Alert variant="danger" data-testid="engine-unreachable">
          <strong>The challenge host&apos;s engine is unreachable.</strong> {engine.message} Starts fail until
          it answers again; the clean-up resumes by itself then.
        </Alert>
      )}
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
    </>
  );
}
