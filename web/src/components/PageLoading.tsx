import { UI_TEXT } from '@ctf/contract';

/** Shown while a session or admin check runs (docs/product.md §2). */
export function PageLoading() {
  return (
    <div className="container py-5 text-center" role="status" aria-live="polite">
      {UI_TEXT.pageLoading}
    </div>
  );
}
