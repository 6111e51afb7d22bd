/** The home page countdown (docs/product.md §4): which label, and the remaining time broken down. */
export type Countdown =
  | { phase: 'before' | 'during'; days: number; hours: number; minutes: number; seconds: number }
  | { phase: 'ended' };

export function countdownAt(nowMs: number, startMs: number, endMs: number): Countdown {
  let target: number;
  let phase: 'before' | 'during';
  if (nowMs < startMs) {
    target = startMs;
    phase = 'before';
  } else if (nowMs < endMs) {
    target = endMs;
    phase = 'during';
  } else {
    return { phase: 'ended' };
  }
  const total = Math.floor((target - nowMs) / 1000);
  return {
    phase,
    days: Math.floor(total / 86400),
    hours: Math.floor((total % 86400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}
