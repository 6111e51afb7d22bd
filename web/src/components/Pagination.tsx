import { useRef } from 'react';
import { Button } from 'react-bootstrap';

interface Props {
  /** The navigation landmark's name, e.g. 'Challenge pages'. */
  label: string;
  page: number;
  /** Known for lists paged in the browser ('Page X of Y'); unknown for cursor-paged server lists. */
  pageCount?: number;
  /** Whether a next page exists; defaults to page < pageCount. */
  hasNext?: boolean;
  onPage: (page: number) => void;
  size?: 'sm';
}

/**
 * Prev / 'Page X of Y' / Next under a paged list. Reaching the first or last page disables the
 * button just pressed; the focus then moves to the other one instead of being lost.
 */
export function Pagination({ label, page, pageCount, hasNext, onPage, size }: Props) {
  const prev = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const canNext = hasNext ?? (pageCount !== undefined && page < pageCount);

  function go(target: number) {
    onPage(target);
    if (target <= 1) next.current?.focus();
    else if (pageCount !== undefined && target >= pageCount) prev.current?.focus();
  }

  return (
    <nav aria-label={label} className="d-flex justify-content-center align-items-center gap-3 my-4">
      <Button
        ref={prev}
        size={size}
        variant="outline-primary"
        disabled={page <= 1}
        onClick={() => go(page - 1)}
      >
        Prev
      </Button>
      <span aria-live="polite" data-testid="page-indicator">
        Page {page}
        {pageCount !== undefined && ` of ${pageCount}`}
      </span>
      <Button
        ref={next}
        size={size}
        variant="outline-primary"
        disabled={!canNext}
        onClick={() => go(page + 1)}
      >
        Next
      </Button>
    </nav>
  );
}
