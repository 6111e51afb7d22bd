import { usePracticeSolves } from '../api/practice';

/**
 * Challenges solved in practice mode, after the event ended: shown to their solver only, apart from
 * the stats, because they never count on the leaderboard. Nothing shows while there are none.
 */
export function PracticeSolves() {
  const practice = usePracticeSolves();
  const list = practice.data ?? [];
  if (list.length === 0) return null;
  return (
    <section aria-labelledby="practice-heading" className="my-3">
      <h2 id="practice-heading" className="h4">
        Practice solves
      </h2>
      <p className="text-body-secondary">Solved after the event ended: not scored.</p>
      <ul>
        {list.map((s) => (
          <li key={s.id}>
            {s.name} <span className="text-body-secondary">{new Date(s.time).toLocaleString()}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
