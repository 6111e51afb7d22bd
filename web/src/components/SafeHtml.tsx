import { DESCRIPTION_HTML_POLICY } from '@ctf/contract';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';

/**
 * HTML the server rendered and sanitised (challenge descriptions, announcements' Markdown),
 * sanitised again here with the same policy before it is shown (DESIGN.md §6, §8).
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
  const clean = useMemo(() => DOMPurify.sanitize(html, DESCRIPTION_HTML_POLICY), [html]);
  return <div className={className} data-testid={testId} dangerouslySetInnerHTML={{ __html: clean }} />;
}
