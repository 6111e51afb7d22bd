import { INSTANCE_LIMITS as L } from '@ctf/contract';
import { Col, Form, Row } from 'react-bootstrap';
import type { InstanceValues } from '../instance-form-values';

/** The challenge form's "Instance" section: a container per team (issue 30). */
export function InstanceFields({
  id,
  value,
  onChange,
}: {
  id: string;
  value: InstanceValues;
  onChange: (v: InstanceValues) => void;
}) {
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
        onChange={(e) => set('enabled', e.target.checked)}
      />
      {value.enabled && (
        <Row className="g-3 mt-1">
          <Form.Group as={Col} xs={12} md={6} controlId={`${id}-instance-image`}>
            <Form.Label>Image</Form.Label>
            <Form.Control
              value={value.image}
              maxLength={L.imageMax}
              placeholder="web-chal:1"
              onChange={(e) => set('image', e.target.value)}
            />
            <Form.Text>On the challenge host&apos;s Docker engine (pulled once if missing).</Form.Text>
          </Form.Group>
          <Form.Group as={Col} xs={12} md={6} controlId={`${id}-instance-ports`}>
            <Form.Label>Ports</Form.Label>
            <Form.Control value={value.ports} onChange={(e) => set('ports', e.target.value)} />
            <Form.Text>PORT/tcp (players get nc HOST PORT) or PORT/http (a link), comma-separated.</Form.Text>
          </Form.Group>
          {text('memoryMb', 'Memory (MB)', `${L.memoryMbMin} to ${L.memoryMbMax}`)}
          {text('cpus', 'CPUs', `${L.cpusMin} to ${L.cpusMax}`)}
          {text('pids', 'Processes', `${L.pidsMin} to ${L.pidsMax}`)}
          {text('lifetimeMinutes', 'Lifetime (minutes)', `renewable up to ${L.maxLifetimes} lifetimes`)}
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
                onChange={(e) => set('capabilities', e.target.value)}
              />
              <Form.Text>Every capability is dropped; list any to add back (NET_BIND_SERVICE, …).</Form.Text>
            </Form.Group>
            <Form.Check
              id={`${id}-instance-writable`}
              type="checkbox"
              className="mt-2"
              label="Writable root file system (read-only otherwise; /tmp is always writable)"
              checked={value.writableRoot}
              onChange={(e) => set('writableRoot', e.target.checked)}
            />
          </Col>
        </Row>
      )}
    </fieldset>
  );
}
