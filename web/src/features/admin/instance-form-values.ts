import {
  INSTANCE_DEFAULTS,
  INSTANCE_LIMITS as L,
  INSTANCE_PROTOCOLS,
  type InstanceDefinition,
  type InstanceDefinitionInput,
  type InstanceProtocol,
} from '@ctf/contract';

// The challenge form's "Instance" fields as typed, and the definition they send (issue 30). The
// server checks every field again; these checks only spare a round trip.

export interface InstanceValues {
  enabled: boolean;
  image: string;
  /** "1337/tcp, 8080/http": container ports and how players reach them. */
  ports: string;
  memoryMb: string;
  cpus: string;
  pids: string;
  lifetimeMinutes: string;
  /** One NAME=value a line. */
  env: string;
  /** Comma list of capabilities added back (NET_BIND_SERVICE, ...). */
  capabilities: string;
  writableRoot: boolean;
  /** Outbound access to public addresses (admins only). */
  egress: boolean;
}

export const NO_INSTANCE: InstanceValues = {
  enabled: false,
  image: '',
  ports: '1337/tcp',
  memoryMb: String(INSTANCE_DEFAULTS.memoryMb),
  cpus: String(INSTANCE_DEFAULTS.cpus),
  pids: String(INSTANCE_DEFAULTS.pids),
  lifetimeMinutes: String(INSTANCE_DEFAULTS.lifetimeMinutes),
  env: '',
  capabilities: '',
  writableRoot: false,
  egress: false,
};

/** A stored definition as the form's fields. */
export function instanceValues(d: InstanceDefinition | null): InstanceValues {
  if (!d) return NO_INSTANCE;
  return {
    enabled: true,
    image: d.image,
    ports: d.ports.map((p) => `${p.port}/${p.protocol}`).join(', '),
    memoryMb: String(d.memoryMb),
    cpus: String(d.cpus),
    pids: String(d.pids),
    lifetimeMinutes: String(d.lifetimeMinutes),
    env: Object.entries(d.env)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
    capabilities: (d.capabilities ?? []).join(', '),
    writableRoot: d.writableRoot === true,
    egress: d.egress === true,
  };
}

const whole = (x: string) => /^[0-9]+$/.test(x.trim());

/** The definition to send (null: none), or why the fields cannot be saved yet. */
export function instanceBody(
  v: InstanceValues,
): { instance: InstanceDefinitionInput | null } | { problem: string } {
  if (!v.enabled) return { instance: null };
  if (!v.image.trim()) return { problem: 'An instance needs an image (name:tag on the challenge host).' };
  const ports: { port: number; protocol: InstanceProtocol }[] = [];
  for (const part of v.ports
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([0-9]{1,5})\/(tcp|http)$/.exec(part);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > 65535)
      return {
        problem: `Instance ports are written PORT/${INSTANCE_PROTOCOLS.join(' or PORT/')}: '${part}' is not.`,
      };
    ports.push({ port: Number(m[1]), protocol: m[2] as InstanceProtocol });
  }
  if (ports.length === 0 || ports.length > L.portsMax)
    return { problem: `An instance publishes 1 to ${L.portsMax} ports.` };
  if (![v.memoryMb, v.pids, v.lifetimeMinutes].every(whole) || !/^[0-9]*\.?[0-9]+$/.test(v.cpus.trim()))
    return { problem: 'Memory, processes and lifetime are whole numbers; CPUs a number such as 0.5.' };
  const env: Record<string, string> = {};
  for (const line of v.env
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const at = line.indexOf('=');
    if (at <= 0) return { problem: `Environment lines are NAME=value: '${line}' is not.` };
    env[line.slice(0, at).trim()] = line.slice(at + 1);
  }
  const capabilities = v.capabilities
    .split(',')
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
  return {
    instance: {
      image: v.image.trim(),
      ports,
      memoryMb: Number(v.memoryMb),
      cpus: Number(v.cpus),
      pids: Number(v.pids),
      lifetimeMinutes: Number(v.lifetimeMinutes),
      env,
      ...(capabilities.length > 0 && { capabilities }),
      ...(v.writableRoot && { writableRoot: true }),
      ...(v.egress && { egress: true }),
    },
  };
}
