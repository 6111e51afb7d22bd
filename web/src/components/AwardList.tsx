import { counted } from '@ctf/contract';
import type { Award } from '@ctf/contract';

const given = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Awards (docs/scoring.md "Awards") on the profile and team pages: each one's points, reason and
 * time. Nothing at all when there are none, so pages without awards look as before.
 */
export function AwardList({ awards, owner }: { awards: readonly Award[]; owner: 'your' | 'the team' }) {
  if (awards.length === 0) return null;
  const headingId = `awards-heading-${owner === 'your' ? 'user' : 'team'}`;
  return (
    <section aria-labelledby={headingId} className="my-3">
      <h2 id={headingId} className="h5">
        Awards
      </h2>
      <p className="text-body-secondary small mb-2">
        Points the organisers gave {owner === 'your' ? 'you' : 'the team'}, counted in the score.
      </p>
      <ul className="list-group">
        {awards.map((a, i) => (
          <li key={`${a.time}-${i}`} className="list-group-item d-flex flex-wrap gap-2 align-items-baseline">
            <strong className={a.points < 0 ? 'text-danger' : 'text-success'}>
              {a.points > 0 ? `+${counted(a.points, 'point')}` : counted(a.points, 'point')}
            </strong>
            <span className="flex-grow-1">{a.reason}</span>
            <time dateTime={a.time} className="text-body-secondary small">
              {given.format(new Date(a.time))}
            </time>
          </li>
        ))}
      </ul>
    </section>
  );
}
