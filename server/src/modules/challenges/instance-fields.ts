import { ADMIN_ONLY_INSTANCE_FIELDS, instancesApi, type ChallengeInput } from '@ctf/contract';
import type { Executor } from '../../db/schema.js';
import { findStoredInstance } from './challenges.repo.js';

type AdminOnlyField = (typeof ADMIN_ONLY_INSTANCE_FIELDS)[number];

/** What runs and what it reaches, as compared: absent capabilities, writable root, egress are off. */
interface Box {
  image: string | null;
  capabilities: string;
  writableRoot: boolean;
  egress: boolean;
}

const NO_BOX: Box = { image: null, capabilities: '', writableRoot: false, egress: false };

function boxOf(d: {
  image: string;
  capabilities?: string[] | undefined;
  writableRoot?: boolean | undefined;
  egress?: boolean | undefined;
}): Box {
  return {
    image: d.image,
    capabilities: [...new Set(d.capabilities ?? [])].sort().join(','),
    writableRoot: d.writableRoot === true,
    egress: d.egress === true,
  };
}

/**
 * The admin-only fields of an instance (image, capabilities, writable root, network access) that
 * this input would change on the stored challenge (`challengeId` null: a new one, which has no
 * instance). An input without `instance` changes nothing; one the schema refuses is left to the
 * write's own 400. Adding or removing an instance changes its image.
 */
export async function adminOnlyInstanceChanges(
  db: Executor,
  challengeId: number | null,
  instance: ChallengeInput['instance'],
): Promise<AdminOnlyField[]> {
  if (instance === undefined) return [];
  let wanted = NO_BOX;
  if (instance !== null) {
    const parsed = instancesApi.InstanceDefinition.safeParse(instance);
    if (!parsed.success) return [];
    wanted = boxOf(parsed.data);
  }
  const stored = challengeId === null ? null : await findStoredInstance(db, challengeId);
  const was = stored ? boxOf(JSON.parse(stored) as Parameters<typeof boxOf>[0]) : NO_BOX;
  return ADMIN_ONLY_INSTANCE_FIELDS.filter((f) => wanted[f] !== was[f]);
}
