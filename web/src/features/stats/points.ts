import type { TeamCompletion } from '@ctf/contract';

export interface MemberPoints {
  name: string;
  points: number;
}

/** The pie's slices: points summed by member name, in the order members first scored. */
export function pointsByMember(completions: readonly TeamCompletion[]): MemberPoints[] {
  const sums = new Map<string, number>();
  for (const c of completions) sums.set(c.memberName, (sums.get(c.memberName) ?? 0) + c.points);
  return [...sums].map(([name, points]) => ({ name, points }));
}
