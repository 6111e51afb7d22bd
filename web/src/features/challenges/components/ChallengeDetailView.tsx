import {
  RATING_MAX,
  challengesApi,
  formatRating,
  type ChallengeDetail,
} from '@ctf/contract';
import { useMemo } from 'react';
import { Badge } from 'react-bootstrap';
import { sanitizeHtml } from '../../../lib/sanitize';
import { authorOf } from '../filter';
import { DynamicMark } from './DynamicMark';
import { FirstBloodBadge } from './FirstBloodBadge';
import { TeamCompletionBadge } from './TeamCompletionBadge';

interface Props {
  challenge: ChallengeDetail;
  solved: boolean;
  teamDone: boolean | null;
}

/** Name, facts, the description as sanitised HTML, and the attached files. */
export function ChallengeDetailView({ challenge: c, solved, teamDone }: Props) {
  // The server sanitises on save; the browser sanitises again, with the same policy, before
  // rendering (docs/product.md §14): HTML that reached the database another way is held to it too.
  const html = useMemo(() => sanitizeHtml(c.description), [c.description]);
  return (
    <article aria-labelledby="challenge-name">
      <h1 id="challenge-name">{c.name}</h1>
      <div className="d-flex flex-wrap gap-1 mb-3">
        <Badge bg="primary">{c.category}</Badge>
        <Badge bg="dark">{c.difficulty}</Badge>
        {solved && (
          <Badge bg="success">
            <span aria-hidden="true">✔ </span>Solved
          </Badge>
        )}
        {teamDone !== null && <TeamCompletionBadge done={teamDone} />}
        <FirstBloodBadge competitor={c.first_blood ?? null} />
      </div>
      <dl className="row mb-3">
        <dt className="col-5 col-sm-3">Author</dt>
        <dd className="col-7 col-sm-9">{authorOf(c)}</dd>
        <dt className="col-5 col-sm-3">Points</dt>
        <dd className="col-7 col-sm-9">
          {c.points}
          {c.scoring_type === 'dynamic' && <DynamicMark />}
        </dd>
        <dt className="col-5 col-sm-3">Rating</dt>
        <dd className="col-7 col-sm-9">
          {formatRating(c.rating)} / {RATING_MAX}
        </dd>
        <dt className="col-5 col-sm-3">Solves</dt>
        <dd className="col-7 col-sm-9">{c.user_completions}</dd>
      </dl>
      <div
        className="challenge-description text-break mb-3"
        data-testid="challenge-description"
        dangerouslySetInnerHTML={{ __html: html }}
      />
      {c.hlinks.length > 0 && (
        <section aria-labelledby="files-heading">
          <h2 id="files-heading" className="h5">
            Files
          </h2>
          <ul>
            {c.hlinks.map((name) => (
              <li key={name}>
                <a href={`${challengesApi.DOWNLOAD_PATH_PREFIX}${encodeURIComponent(name)}`} download={name}>
                  {name}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
