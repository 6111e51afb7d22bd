import { Link } from 'react-router';
import SafeHtml from '../../../components/SafeHtml';
import { useAnnouncements } from '../../../lib/announcements';

/**
 * The newest pinned announcement, above everything else on the home page; nothing without one.
 * Drawn whole in the page's first render (its list is asked for at start-up, app/prefetch.ts, and
 * the sanitiser is in the first page's code, scripts/check-bundle.mjs counts it), so it never
 * pushes the page down after the first paint.
 */
export function PinnedAnnouncement() {
  const list = useAnnouncements().data;
  const pinned = Array.isArray(list) ? list.find((a) => a.pinned) : undefined;
  if (!pinned) return null;
  return (
    <section
      className="alert alert-warning"
      aria-labelledby="pinned-announcement"
      data-testid="pinned-announcement"
    >
      <h2 id="pinned-announcement" className="h5">
        {pinned.title}
      </h2>
      <SafeHtml html={pinned.body_html} className="text-break" />
      <Link to="/announcements" className="alert-link">
        All announcements
      </Link>
    </section>
  );
}
