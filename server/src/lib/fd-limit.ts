import { readFileSync } from 'node:fs';

/**
 * This process's limit on open file descriptors (`ulimit -n`, the soft limit), read from Linux's
 * /proc/self/limits (Node has no getrlimit); null where that cannot be read (another system).
 */
export function openFileLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    if (soft === undefined) return null;
    if (soft === 'unlimited') return Number.MAX_SAFE_INTEGER;
    const n = Number(soft);
    return Number.isFinite(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

/**
 * How many live event streams one process holds at most, when EVENT_STREAMS_MAX is not set: half
 * its file descriptors (each stream holds one; the rest stay for the database, uploads, other
 * requests and the logs), capped at 100,000; 1,024 where the limit cannot be read.
 */
export function defaultStreamLimit(fdLimit: number | null = openFileLimit()): number {
  if (fdLimit === null) return 1024;
  return Math.max(64, Math.min(100_000, Math.floor(fdLimit / 2)));
}
