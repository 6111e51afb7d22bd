import { INSTANCE_LIMITS as L, type InstancePolicy } from '@ctf/contract';
import { Alert, Col, Form, Row } from 'react-bootstrap';
import type { InstanceValues } from '../instance-form-values';
import { useInstancePolicy } from '../api/instances';
import { useStaffRole } from '../staff-role';

/** "16 to 1024": the form's range, its top the operator's ceiling once the policy is read. */
function range(min: number, max: number, ceiling: number | undefined): string {
  return `${min} to ${ceiling ?? max}${ceiling !== undefined ? ' (this site’s limit)' : ''}`;
}

/**
 * The challenge form's "Instance" section: a container per team. It shows the operator's box
 * (GET /api/admin/instances/policy): the ceilings, the capabilities and image prefixes allowed.
 * What runs and what it reaches (image, capabilities, writable root, egress) is an admin's to
 * change: an author sees them read-only.
 */
export function InstanceFields({
  id,
  value,
  onChange,
}: {
  id: string;
  value: InstanceValues;
  onChange: (v: InstanceValues) => void;
}) {
  const policy: InstancePolicy | undefined = useInstancePolicy().data;
  const locked = useStaffRole() !== 'admin';
  const set = <K extends keyof InstanceValues>(key: K, v: InstanceValues[K]) =>
    onChange({ ...value, [key]: v });
  const text = (key: 'memoryMb' | 'cpus' | 'pids' | 'lifetimeMinutes', label: string, help: string) => (
    <Form.Group as={Col} xs={6} md={3} controlId={`${id}-instance-${key}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control inputMode="decimal" value={value[key]} onChange={(e) => set(key, e.target.value)} />
      <Form.Text>{help}</Form.Text>
    </Form.Group>
  );
  return (
    <fieldset className="border rounded p-3">
      <legend className="h6 float-none w-auto px-1 mb-0">Instance</legend>
      <Form.Check
        id={`${id}-instance-enabled`}
        type="checkbox"
        label="Start a container per team (its own flag inside as FLAG: use per-team flags)"
        checked={value.enabled}
        disabled={locked}
        onChange={(e) => set('enabled', e.target.checked)}
      />
      {locked && (
        <Form.Text className="d-block">
          Only an admin sets what an instance runs and reaches (image, capabilities, writable root, internet
          access): propose an image in the description.
        </Form.Text>
      )}
      {value.enabled && (
        <Row className="g-3 mt-1">
          <Form.Group as={Col} xs={12} md={6} controlId={`${id}-instance-image`}>
            <Form.Label>Image</Form.Label>
            <Form.Control
              value={value.image}
              maxLength={L.imageMax}
              placeholder="web-chal:1"
              disabled={locked}
              onChange={(e) => set('image', e.target.value)}
            />
            <Form.Text>
              On the challenge host&apos;s Docker engine (pulled once if missing).
              {policy && policy.imagePrefixes.length > 0 && ` Allowed: ${policy.imagePrefixes.join(', ')}…`}
            </Form.Text>
          </Form.Group>
          <Form.Group as={Col} xs={12} md={6} controlId={`${id}-instance-ports`}>
            <Form.Label>Ports</Form.Label>
            <Form.Control value={value.ports} onChange={(e) => set('ports', e.target.value)} />
            <Form.Text>PORT/tcp (players get nc HOST PORT) or PORT/http (a link), comma-separated.</Form.Text>
          </Form.Group>
          {text('memoryMb', 'Memory (MB)', range(L.memoryMbMin, L.memoryMbMax, policy?.maxMemoryMb))}
          {text('cpus', 'CPUs', range(L.cpusMin, L.cpusMax, policy?.maxCpus))}
          {text('pids', 'Processes', range(L.pidsMin, L.pidsMax, policy?.maxPids))}
          {text(
            'lifetimeMinutes',
            'Lifetime (minutes)',
            `${range(L.lifetimeMinutesMin, L.lifetimeMinutesMax, policy?.maxLifetimeMinutes)}; renewable up to ${L.maxLifetimes} lifetimes`,
          )}
          <Form.Group as={Col} xs={12} md={6} controlId={`${id}-instance-env`}>
            <Form.Label>Environment</Form.Label>
            <Form.Control
              as="textarea"
              rows={3}
              value={value.env}
              placeholder="NAME=value"
              onChange={(e) => set('env', e.target.value)}
            />
            <Form.Text>One NAME=value a line; FLAG is set by the site.</Form.Text>
          </Form.Group>
          <Col xs={12} md={6}>
            <Form.Group controlId={`${id}-instance-capabilities`}>
              <Form.Label>Capabilities</Form.Label>
              <Form.Control
                value={value.capabilities}
                placeholder="none"
                disabled={locked}
                onChange={(e) => set('capabilities', e.target.value)}
              />
              <Form.Text>
                Every capability is dropped; list any to add back
                {policy
                  ? ` (allowed here: ${policy.capabilities.join(', ') || 'none'})`
                  : ' (NET_BIND_SERVICE, …)'}
                .
              </Form.Text>
            </Form.Group>
            <Form.Check
              id={`${id}-instance-writable`}
              type="checkbox"
              className="mt-2"
              label="Writable root file system (read-only otherwise; /tmp is always writable)"
              checked={value.writableRoot}
              disabled={locked}
              onChange={(e) => set('writableRoot', e.target.checked)}
            />
            <Form.Check
              id={`${id}-instance-egress`}
              type="checkbox"
              className="mt-2"
              label="Internet access (outbound, through the site's egress proxy)"
              checked={value.egress}
              disabled={locked}
              onChange={(e) => set('egress', e.target.checked)}
            />
            {value.egress && (
              <Alert variant="warning" className="mt-2 mb-0 small">
                A player with a shell in this container can then reach any public address: attack or scan
                other sites from your challenge host&apos;s address, or download tools. It still reaches
                neither this machine, private addresses nor other instances. Turn it on only for a challenge
                that needs it.
              </Alert>
            )}
          </Col>
        </Row>
      )}
    </fieldset>
  );
}
