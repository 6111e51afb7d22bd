import { useHydrated } from '../lib/hydration';

/**
 * A moment in the reader's own time zone and language. The server knows neither, so a page it
 * rendered shows the text once hydrated (the element, and its machine-readable dateTime, are
 * there from the first paint).
 */
export function LocalTime({ iso, format }: { iso: string; format: (date: Date) => string }) {
  const hydrated = useHydrated();
  return <time dateTime={iso}>{hydrated ? format(new Date(iso)) : ''}</time>;
}
