import { challengesApi } from '@ctf/contract';
import { useMemo } from 'react';
import { sanitizeHtml } from '../../../lib/sanitize';

/** The official solution (issue 32), shown only when the server sent it (its visibility allows). */
export function SolutionPanel({ html, files }: { html: string; files: readonly string[] }) {
  // Rendered and sanitised on the server; sanitised again here with the same policy.
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  return (
    <section aria-labelledby="solution-heading" className="my-4" data-testid="solution">
      <h2 id="solution-heading" className="h4">
        Solution
      </h2>
      <div className="challenge-description text-break" dangerouslySetInnerHTML={{ __html: clean }} />
      {files.length > 0 && (
        <>
          <h3 className="h6">Solution files</h3>
          <ul>
            {files.map((name) => (
              <li key={name}>
                <a href={`${challengesApi.DOWNLOAD_PATH_PREFIX}${encodeURIComponent(name)}`} download={name}>
                  {name}
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
