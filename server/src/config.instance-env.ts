import { CAPABILITY_NAME, DEFAULT_INSTANCE_POLICY as D, NEVER_CAPABILITIES } from '@ctf/contract';
import { z } from 'zod';

// The operator's instance policy (the box every challenge's container chooses inside) and the
// engine's deadline, as environment variables; config.ts turns them into config.instances.

const optionalNonEmpty = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const commaList = (v: string) =>
  v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

export const INSTANCE_ENV = {
  /**
   * The capabilities a challenge may add back (comma-separated, or `none`). Default: a short list
   * of harmless ones. Those that break a container (NEVER_CAPABILITIES) are refused at start-up.
   */
  INSTANCE_CAPABILITIES: optionalNonEmpty.transform((v, ctx) => {
    if (v === undefined) return [...D.capabilities];
    if (v.toLowerCase() === 'none') return [];
    const caps = commaList(v.toUpperCase()).map((c) => c.replace(/^CAP_/, ''));
    for (const cap of caps) {
      if (!CAPABILITY_NAME.test(cap)) {
        ctx.addIssue({ code: 'custom', message: `INSTANCE_CAPABILITIES: '${cap}' is not a capability name` });
        return z.NEVER;
      }
      if ((NEVER_CAPABILITIES as readonly string[]).includes(cap)) {
        ctx.addIssue({
          code: 'custom',
          message: `INSTANCE_CAPABILITIES: ${cap} is never allowed (it breaks the container's isolation)`,
        });
        return z.NEVER;
      }
    }
    return [...new Set(caps)];
  }),
  /** The most a challenge may ask for: memory (MB), CPUs, processes, lifetime (minutes). */
  INSTANCE_MAX_MEMORY_MB: z.coerce.number().int().min(16).max(16_384).default(D.maxMemoryMb),
  INSTANCE_MAX_CPUS: z.coerce.number().min(0.05).max(16).default(D.maxCpus),
  INSTANCE_MAX_PIDS: z.coerce.number().int().min(8).max(4096).default(D.maxPids),
  INSTANCE_MAX_LIFETIME_MINUTES: z.coerce.number().int().min(1).max(1440).default(D.maxLifetimeMinutes),
  /** Image references must start with one of these (comma-separated); unset: any image. */
  INSTANCE_IMAGE_PREFIXES: optionalNonEmpty.transform((v) => (v === undefined ? [] : commaList(v))),
  /** The engine's runtime for instances (`runsc` for gVisor); unset: the engine's default. */
  INSTANCE_RUNTIME: optionalNonEmpty.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'INSTANCE_RUNTIME must be a runtime name such as runsc')
      .optional(),
  ),
  /** The entry point's image on the engine (scripts/docker/build-entry-point.sh builds it). */
  INSTANCE_ENTRY_IMAGE: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._/:@-]{0,254}$/, 'INSTANCE_ENTRY_IMAGE must be an image reference')
    .default('ctf-instance-entry:1'),
  /**
   * Entry points kept warm per active instance challenge (made ahead, so a start makes only the
   * challenge's container); 0: none, every start makes its own.
   */
  INSTANCE_WARM_ENTRIES: z.coerce.number().int().min(0).max(200).default(2),
  /** Seconds any one call to the Docker engine may take (a pull has its own, longer bound). */
  INSTANCE_ENGINE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(30),
};
