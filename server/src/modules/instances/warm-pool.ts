import type { AppContext } from '../../context.js';
import { readEventState } from '../event-state/event-state.service.js';
import type { WarmWant } from './driver.js';
import { listActiveInstanceDefinitions, listUsedPorts } from './instances.repo.js';
import { boundedDefinition } from './policy.js';
import { driverOf, launchesOf } from './runtime.js';
import { parseDefinition } from './instances.service.js';
import { denyHostsOf, warmKeyOf } from './warm-entries.js';

/**
 * The janitor's last step: INSTANCE_WARM_ENTRIES warm entry points for each active instance
 * challenge (challenges of one shape share theirs), the others removed (a shape no longer wanted,
 * or the setting lowered). Their host ports avoid every port the database has claimed. Skipped
 * while this process is starting instances.
 */
export async function keepEntriesWarm(ctx: AppContext): Promise<void> {
  // Starts under way here come first: the engine makes their containers before new warm ones.
  if (launchesOf(ctx).size > 0) return;
  const per = ctx.config.instances.warmEntries;
  const db = ctx.database.db;
  const wants = new Map<string, WarmWant>();
  if (per > 0) {
    const host = (await readEventState(ctx)).settings.challengeHost;
    const denyHosts = denyHostsOf(host, ctx.config.instances.probeHost);
    for (const text of await listActiveInstanceDefinitions(db)) {
      const stored = parseDefinition(text);
      if (!stored) continue;
      const d = boundedDefinition(stored, ctx.config.instances.policy);
      const shape = { ports: d.ports, egress: d.egress === true, denyHosts };
      const key = warmKeyOf(shape, ctx.config.instances.entryImage);
      const want = wants.get(key) ?? { key, ...shape, ports: [...d.ports], count: 0 };
      want.count += per;
      wants.set(key, want);
    }
  }
  await driverOf(ctx).keepWarm([...wants.values()], await listUsedPorts(db));
  if (wants.size > 0) keeping.add(ctx);
  else keeping.delete(ctx);
}

/** Sites whose last sweep kept warm entry points: swept on even without an instance challenge. */
const keeping = new WeakSet<AppContext>();

/** Whether warm entry points this process made may still be on the engine (to be removed). */
export const mayHaveWarmEntries = (ctx: AppContext) => keeping.has(ctx);
