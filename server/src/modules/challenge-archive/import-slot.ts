import { CHALLENGE_ARCHIVE_LIMITS, CHALLENGE_IMPORT_BUSY } from '@ctf/contract';
import type { AppContext } from '../../context.js';
import { DomainError } from '../../lib/errors.js';

/**
 * One challenge.yml import (or dry run, or the sample challenges) at a time in a process: an
 * import holds its archive in memory, and twelve at once took a server from 218 MB to 2.2 GB.
 * Others wait their turn in order, at most CHALLENGE_ARCHIVE_LIMITS.importWaitMs, then get 429.
 */
class Slot {
  private busy = false;
  private readonly waiting: Array<() => void> = [];

  /** A release function once the slot is this caller's, or null when waitMs passed first. */
  acquire(waitMs: number): Promise<(() => void) | null> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve(() => this.release());
    }
    return new Promise((resolve) => {
      const turn = () => {
        clearTimeout(timer);
        resolve(() => this.release());
      };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(turn);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(null);
      }, waitMs);
      this.waiting.push(turn);
    });
  }

  get taken(): boolean {
    return this.busy;
  }

  private release(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next in line: it never looks free in between.
    if (next) next();
    else this.busy = false;
  }
}

const slots = new WeakMap<AppContext, Slot>();

/** Whether an import runs in this process now. */
export function importRunning(ctx: AppContext): boolean {
  return slots.get(ctx)?.taken ?? false;
}

/** Runs work once this process's import slot is free, or throws 429 after waiting importWaitMs. */
export async function withImportSlot<T>(ctx: AppContext, work: () => Promise<T>): Promise<T> {
  let slot = slots.get(ctx);
  if (!slot) {
    slot = new Slot();
    slots.set(ctx, slot);
  }
  const release = await slot.acquire(CHALLENGE_ARCHIVE_LIMITS.importWaitMs);
  if (!release) throw new DomainError('rate_limited', CHALLENGE_IMPORT_BUSY);
  try {
    return await work();
  } finally {
    release();
  }
}
