import { LEADERBOARD_SCROLL_HEIGHT_PX, type LeaderboardRow, counted } from '@ctf/contract';
import { observeElementRect, useVirtualizer, type Rect, type Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { Badge } from 'react-bootstrap';
import { QueryError } from '../../../components/QueryError';
import { PAGE_SIZE, useShownPages } from '../api/leaderboard';
import { badgeFor } from '../ranking';

/**
 * Every row's height (one line of name, a pill badge, list-group padding): fixed, so no row is
 * measured when it mounts and the server's first view places the rows where the browser does.
 * A name too long for its line is cut with an ellipsis (its whole text stays in the title).
 */
export const ROW_HEIGHT_PX = 49;
/** Rows kept in the DOM beyond each edge of the view, so a quick scroll shows no blank rows. */
const OVERSCAN = 8;

/**
 * A scroller not laid out yet (or a test's DOM, which has no layout) reads 0 px high: take it at
 * its maximum height, so the first rows render at once instead of none.
 */
function observeRect(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: Rect) => void) {
  return observeElementRect(instance, (rect) =>
    cb(rect.height > 0 ? rect : { width: rect.width, height: LEADERBOARD_SCROLL_HEIGHT_PX }),
  );
}

/** Before the scroller is laid out (and on the server): the list at its maximum height. */
const INITIAL_RECT: Rect = { width: 0, height: LEADERBOARD_SCROLL_HEIGHT_PX };

interface Props {
  /** The search text the rows match ('' for the whole board). */
  search: string;
  /** The division whose board this is ('' for the whole board; issue 19). */
  division?: string;
  /** How many rows the board (or search) holds. */
  total: number;
  /** The rank to highlight (the caller's, after "My position"). */
  highlight: number | null;
  /** A request to scroll to a rank; a new object for each press of the button. */
  scrollRequest: { rank: number } | null;
}

/**
 * The board as a windowed list (docs/product.md §2: scrolls at 400 px): only the rows in view, and a few
 * around them, are in the DOM, and only their pages of PAGE_SIZE rows are asked for, so a
 * 5,000-competitor board costs a phone what a 30-row one does.
 */
export function BoardList({ search, division = '', total, highlight, scrollRequest }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT_PX,
    initialRect: INITIAL_RECT,
    overscan: OVERSCAN,
    observeElementRect: observeRect,
  });
  const items = virtualizer.getVirtualItems();
  const indexes = [...new Set(items.map((item) => Math.floor(item.index / PAGE_SIZE)))];
  const pages = useShownPages(search, indexes, division);
  const rowAt = (index: number): LeaderboardRow | undefined =>
    pages[indexes.indexOf(Math.floor(index / PAGE_SIZE))]?.data?.rows[index % PAGE_SIZE];
  const failed = pages.filter((p) => p.isError);

  // Each press of "My position" scrolls once, when its row exists in this list.
  const done = useRef<object | null>(null);
  useEffect(() => {
    if (!scrollRequest || done.current === scrollRequest || scrollRequest.rank > total) return;
    done.current = scrollRequest;
    virtualizer.scrollToIndex(scrollRequest.rank - 1, { align: 'center' });
  }, [scrollRequest, total, virtualizer]);

  return (
    <>
      {failed.length > 0 && (
        <QueryError
          what="the leaderboard"
          error={failed[0]!.error}
          onRetry={() => Promise.all(failed.map((p) => p.refetch()))}
          className="mb-2"
        />
      )}
      <div
        ref={scroller}
        className="leaderboard-list border rounded"
        style={{ maxHeight: LEADERBOARD_SCROLL_HEIGHT_PX }}
        tabIndex={0}
        role="region"
        aria-label="Leaderboard list"
      >
        <ol
          className="list-group list-group-flush"
          aria-label="Leaderboard"
          style={{ position: 'relative', height: virtualizer.getTotalSize() }}
        >
          {items.map((item) => {
            const e = rowAt(item.index);
            const style = {
              position: 'absolute',
              top: 0,
              left: 0,
              width: '100%',
              height: ROW_HEIGHT_PX,
              transform: `translateY(${item.start}px)`,
            } as const;
            if (!e) {
              return (
                <li
                  key={item.key}
                  data-index={item.index}
                  className="list-group-item text-body-secondary"
                  style={style}
                  aria-setsize={total}
                  aria-posinset={item.index + 1}
                  aria-busy="true"
                  data-testid="leaderboard-placeholder"
                >
                  Loading…
                </li>
              );
            }
            const badge = badgeFor(e.rank);
            const mine = highlight === e.rank;
            return (
              <li
                key={item.key}
                data-index={item.index}
                className={`list-group-item d-flex align-items-center gap-3${mine ? ' list-group-item-primary leaderboard-me' : ''}`}
                style={style}
                aria-setsize={total}
                aria-posinset={item.index + 1}
                aria-current={mine ? 'true' : undefined}
                data-testid="leaderboard-entry"
              >
                <span className="fw-bold text-nowrap" style={{ minWidth: '2.5em' }}>
                  #{e.rank}
                </span>
                <span className="flex-grow-1 text-truncate" title={e.name}>
                  {e.name}
                </span>
                <Badge pill bg={badge.bg} text={badge.text} data-testid="points-badge">
                  {counted(e.points, 'point')}
                </Badge>
              </li>
            );
          })}
        </ol>
      </div>
    </>
  );
}
