import { useMemo } from 'react';
import { sanitizeHtml } from '../lib/sanitize';

/**
 * HTML the server rendered and sanitised (challenge descriptions, announcements' Markdown),
 * sanitised again here with the same policy before it is shown (docs/product.md §14, §15).
 */
export default function SafeHtml({
  html,
  className,
  testId,
}: {
  html: string;
  className?: string;
  testId?: string;
}) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  return <div className={className} data-testid={testId} dangerouslySetInnerHTML={{ __html: clean }} />;
}
