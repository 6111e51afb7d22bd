import { NEVER_CAPABILITIES, type InstanceDefinition, type InstancePolicy } from '@ctf/contract';

/**
 * A stored definition as it may run under the operator's policy now: whatever was saved before
 * the policy (or written to the database by hand), the container never gets a capability outside
 * it nor more than its ceilings. An image outside the allowed prefixes is refused at start
 * (imageAllowed), not silently swapped.
 */
export function boundedDefinition(d: InstanceDefinition, policy: InstancePolicy): InstanceDefinition {
  const never = NEVER_CAPABILITIES as readonly string[];
  return {
    ...d,
    memoryMb: Math.min(d.memoryMb, policy.maxMemoryMb),
    cpus: Math.min(d.cpus, policy.maxCpus),
    pids: Math.min(d.pids, policy.maxPids),
    lifetimeMinutes: Math.min(d.lifetimeMinutes, policy.maxLifetimeMinutes),
    capabilities: (d.capabilities ?? []).filter((c) => policy.capabilities.includes(c) && !never.includes(c)),
    writableRoot: d.writableRoot === true,
    egress: d.egress === true,
  };
}

export function imageAllowed(image: string, policy: InstancePolicy): boolean {
  return policy.imagePrefixes.length === 0 || policy.imagePrefixes.some((p) => image.startsWith(p));
}
