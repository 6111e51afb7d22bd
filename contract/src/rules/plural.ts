/**
 * A count with its noun in the right number: `counted(1, 'challenge')` is '1 challenge',
 * `counted(3, 'challenge')` '3 challenges'; `many` for the nouns that do not just take an s.
 */
export function counted(count: number, one: string, many = `${one}s`): string {
  return `${count} ${Math.abs(count) === 1 ? one : many}`;
}

/** The verb or noun form for a count: `agreeing(1, 'matches', 'match')` is 'matches'. */
export function agreeing(count: number, one: string, many: string): string {
  return Math.abs(count) === 1 ? one : many;
}
