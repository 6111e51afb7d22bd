import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Toast, ToastContainer } from 'react-bootstrap';
import { Link } from 'react-router';
import { subscribeLiveEvent, subscribeLiveReopen } from '../lib/live-events';
import { queryKeys } from '../lib/query';

interface Notice {
  key: number;
  kind: 'announcement' | 'first-blood';
  title: string;
  text: string;
}

/** At most this many toasts at once; older ones make room. */
const MAX_TOASTS = 3;
const TOAST_MS = 10_000;

/**
 * The live event stream's effect on the page: the cached answers an event names are refreshed
 * (only the ones on screen refetch; the rest are marked stale), and announcements and first
 * bloods show a toast. Without the stream, nothing here happens and pages fetch as before.
 */
export function LiveUpdates() {
  const client = useQueryClient();
  const [notices, setNotices] = useState<Notice[]>([]);

  useEffect(() => {
    let next = 0;
    const show = (n: Omit<Notice, 'key'>) =>
      setNotices((shown) => [...shown.slice(-(MAX_TOASTS - 1)), { ...n, key: ++next }]);
    const refresh = (...keys: (readonly unknown[])[]) => {
      for (const queryKey of keys) void client.invalidateQueries({ queryKey });
    };
    const offs = [
      // NOTE: no 'leaderboard' here: an open leaderboard refreshes itself calmly (at most every
      // 5 s, jittered, not in a hidden tab: features/leaderboard/use-calm-refresh.ts, issue 20).
      subscribeLiveEvent('challenges', () => refresh(queryKeys.challenges)),
      subscribeLiveEvent('site', () => refresh(queryKeys.siteInfo, queryKeys.challenges)),
      subscribeLiveEvent('announcement', (a) => {
        refresh(queryKeys.announcements);
        // An edit or a deletion refreshes the list without a toast.
        if (!a.change) show({ kind: 'announcement', title: 'New announcement', text: a.title });
      }),
      subscribeLiveEvent('first-blood', (b) => {
        refresh(queryKeys.challenges, ['challenge']);
        show({
          kind: 'first-blood',
          title: 'First blood',
          text: `${b.competitor} solved ${b.challenge} first`,
        });
      }),
      subscribeLiveReopen(() => refresh(queryKeys.challenges, queryKeys.announcements, queryKeys.siteInfo)),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [client]);

  const dismiss = (key: number) => setNotices((shown) => shown.filter((n) => n.key !== key));

  // Nothing in the page until there is something to say (the first paint stays index.html's).
  if (notices.length === 0) return null;
  return (
    <ToastContainer position="top-end" className="p-3 position-fixed" style={{ zIndex: 1080 }}>
      {notices.map((n) => (
        <Toast
          key={n.key}
          onClose={() => dismiss(n.key)}
          delay={TOAST_MS}
          autohide
          bg={n.kind === 'first-blood' ? 'danger' : 'light'}
          data-testid={`live-toast-${n.kind}`}
        >
          <Toast.Header closeLabel="Dismiss">
            <strong className="me-auto">{n.title}</strong>
          </Toast.Header>
          <Toast.Body className={n.kind === 'first-blood' ? 'text-white' : undefined}>
            {n.kind === 'announcement' ? (
              <Link to="/announcements" onClick={() => dismiss(n.key)}>
                {n.text}
              </Link>
            ) : (
              n.text
            )}
          </Toast.Body>
        </Toast>
      ))}
    </ToastContainer>
  );
}
