/**
 * Housekeeping that rides on a frequent action (the expired rows of a table deleted at a sign-in),
 * run at most once per interval for each owner (an app's context): at an event's start sign-ins
 * come by the hundred a second, and the expired rows they would delete are refused where they are
 * read anyway. Answers whether the housekeeping is due now, and if so counts it as done.
 */
export function atMostEvery(intervalMs: number): (owner: object, nowMs: number) => boolean {
  const last = new WeakMap<object, number>();
  return (owner, nowMs) => {
    const at = last.get(owner);
    // A clock set back (a test's, an operator's) makes it due again rather than never.
    if (at !== undefined && nowMs >= at && nowMs - at < intervalMs) return false;
    last.set(owner, nowMs);
    return true;
  };
}

/** How often a table's expired rows are deleted by the action that adds to it. */
export const EXPIRED_ROWS_SWEEP_MS = 60_000;
