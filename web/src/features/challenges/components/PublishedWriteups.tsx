import { usePublishedWriteups } from '../api/writeups';

/** After the event: the writeups the organisers published for this challenge (issue 32). */
export function PublishedWriteups({ challengeId }: { challengeId: string }) {
  const published = usePublishedWriteups(challengeId, true);
  if (!published.data || published.data.length === 0) return null;
  return (
    <section aria-labelledby="writeups-heading" className="my-4" data-testid="published-writeups">
      <h2 id="writeups-heading" className="h4">
        Writeups
      </h2>
      <ul>
        {published.data.map((w) => (
          <li key={w._id}>
            {w.competitor}:{' '}
            {w.url ? (
              <a href={w.url} target="_blank" rel="noopener noreferrer nofollow">
                {w.url}
              </a>
            ) : w.file ? (
              <a href={w.file.href} download={w.file.name}>
                {w.file.name}
              </a>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
