import { useRef } from 'react';
import { Button } from 'react-bootstrap';

interface Props {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
}

/**
 * Prev / 'Page X of Y' / Next under the challenge list. Reaching the first or last page disables
 * the button just pressed; the focus then moves to the other one instead of being lost.
 */
export function Pagination({ page, pageCount, onPage }: Props) {
  const prev = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);

  function go(target: number) {
    onPage(target);
    if (target <= 1) next.current?.focus();
    else if (target >= pageCount) prev.current?.focus();
  }

  return (
    <nav aria-label="Challenge pages" className="d-flex justify-content-center align-items-center gap-3 my-4">
      <Button ref={prev} variant="outline-primary" disabled={page <= 1} onClick={() => go(page - 1)}>
        Prev
      </Button>
      <span aria-live="polite" data-testid="page-indicator">
        Page {page} of {pageCount}
      </span>
      <Button ref={next} variant="outline-primary" disabled={page >= pageCount} onClick={() => go(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
