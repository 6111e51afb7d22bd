import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { useAnnouncements } from '../../../lib/announcements';

// The sanitiser loads only when there is a pinned announcement to show: the home page's first
// load stays within its budget.
const SafeHtml = lazy(() => import('../../../components/SafeHtml'));

/** The newest pinned announcement, above everything else on the home page; nothing without one. */
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
      <Suspense fallback={null}>
        <SafeHtml html={pinned.body_html} className="text-break" />
      </Suspense>
      <Link to="/announcements" className="alert-link">
        All announcements
      </Link>
    </section>
  );
}
