import { announcementsApi, type Announcement } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { fetchData } from './api';
import { queryKeys } from './query';

/**
 * GET /api/info/announcements, without credentials: the same answer for everyone (visitors too,
 * also while the site is inactive), revalidated by ETag. The live stream refreshes it.
 */
export const announcementsQuery = {
  queryKey: queryKeys.announcements,
  queryFn: () => fetchData(announcementsApi.listAnnouncements, undefined, { credentials: 'omit' }),
  staleTime: 30_000,
};

export function useAnnouncements() {
  return useQuery(announcementsQuery);
}

/** The browser remembers which announcements it has shown (no account needed, no server state). */
const SEEN_KEY = 'ctf.announcements.seen';
const SEEN_MAX = 200;
const listeners = new Set<() => void>();
/** The stored ids (a string: React compares snapshots by value, so an unchanged one renders nothing). */
function readSeen(): string {
  try {
    return window.localStorage.getItem(SEEN_KEY) ?? '';
  } catch {
    return '';
  }
}

function subscribeSeen(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === SEEN_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

function seenIds(raw: string): Set<string> {
  return new Set(raw.split(',').filter((s) => s !== ''));
}

/** How many announcements this browser has not shown yet, and a way to mark them all as read. */
export function useUnreadAnnouncements(): {
  unread: number;
  markRead: (list: readonly Announcement[]) => void;
} {
  const list = useAnnouncements().data;
  const raw = useSyncExternalStore(subscribeSeen, readSeen, () => '');
  const seen = seenIds(raw);
  const unread = Array.isArray(list) ? list.filter((a) => !seen.has(a._id)).length : 0;
  const markRead = useCallback((shown: readonly Announcement[]) => {
    const current = seenIds(readSeen());
    const ids = shown.map((a) => a._id);
    if (ids.every((id) => current.has(id))) return;
    // Only ids that still exist are kept (those shown), so the list stays short.
    const next = ids.slice(0, SEEN_MAX).join(',');
    try {
      window.localStorage.setItem(SEEN_KEY, next);
    } catch {
      // Storage refused (private mode): the count simply stays.
    }
    for (const l of listeners) l();
  }, []);
  return { unread, markRead };
}
