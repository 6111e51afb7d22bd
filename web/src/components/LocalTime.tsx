import { useHydrated } from '../lib/hydration';

/**
 * A moment in the reader's own time zone and language. The server knows neither, so a page it
 * rendered shows the text once hydrated; until then the element (with its machine-readable
 * dateTime) holds a no-break space, so its line has its height from the first paint and nothing
 * below it moves when the text comes.
 */
export function LocalTime({ iso, format }: { iso: string; format: (date: Date) => string }) {
  const hydrated = useHydrated();
  return <time dateTime={iso}>{hydrated ? format(new Date(iso)) : '\u00a0'}</time>;
}
