import { UI_TEXT, agreeing, counted } from '@ctf/contract';
import { useMemo, useState } from 'react';
import { Alert, Col, Container, Row } from 'react-bootstrap';
import { Link } from 'react-router';
import { QueryError } from '../../../components/QueryError';
import { useCurrentUser } from '../../../lib/auth';
import { useSiteInfo } from '../../../lib/site-info';
import { useChallengeList } from '../api/challenge-list';
import { useCompletions } from '../../../lib/completions';
import { DEFAULT_FILTERS, authorsOf, filterChallenges, paginate, type ChallengeFilters } from '../filter';
import { ChallengeCard } from './ChallengeCard';
import { ChallengeFilterForm } from './ChallengeFilterForm';
import { Pagination } from '../../../components/Pagination';

/** docs/product.md §2 Compete page: filtered, paged challenge cards. */
export function CompetePage() {
  const me = useCurrentUser();
  const list = useChallengeList();
  const onTeam = !!me.data?.team_id;
  const completions = useCompletions(onTeam);
  const [filters, setFilters] = useState<ChallengeFilters>(DEFAULT_FILTERS);
  const [page, setPage] = useState(1);

  const mine = useMemo(() => new Set((me.data?.completions ?? []).map((c) => c.id)), [me.data]);
  const team = useMemo(
    () => (onTeam ? new Set((completions.data?.teamCompletions ?? []).map((c) => c.id)) : null),
    [onTeam, completions.data],
  );
  const challenges = useMemo(() => (list.data?.kind === 'list' ? list.data.challenges : []), [list.data]);
  const authors = useMemo(() => authorsOf(challenges), [challenges]);
  const shown = useMemo(
    () => filterChallenges(challenges, filters, { mine, team }),
    [challenges, filters, mine, team],
  );
  const slice = paginate(shown, page);

  // Any filter change returns to page 1.
  const changeFilters = (next: ChallengeFilters) => {
    setFilters(next);
    setPage(1);
  };

  return (
    <Container className="py-3">
      <h1>Compete</h1>
      <p>
        New to remote challenges? Read <Link to="/challenge_help">how to connect to a challenge</Link>. Solved
        something? <Link to="/rate-challenge">Rate the challenges you solved</Link>.
      </p>
      {list.isPending || me.isPending || (onTeam && completions.isPending) ? (
        <p role="status">Loading challenges…</p>
      ) : list.isError ? (
        <QueryError what="the challenges" error={list.error} onRetry={() => list.refetch()} />
      ) : me.isError ? (
        <QueryError what="your account" error={me.error} onRetry={() => me.refetch()} />
      ) : completions.isError ? (
        <QueryError
          what="your team's completions"
          error={completions.error}
          onRetry={() => completions.refetch()}
        />
      ) : list.data.kind === 'inactive' ? (
        <Alert variant="warning">
          {list.data.message}
          <OpensAt />
        </Alert>
      ) : (
        <>
          <ChallengeFilterForm
            filters={filters}
            authors={authors}
            onTeam={onTeam}
            onChange={changeFilters}
            onClear={() => changeFilters(DEFAULT_FILTERS)}
          />
          {shown.length === 0 ? (
            <div className="text-center py-5" role="status">
              <h2 className="h4">{UI_TEXT.noChallenges}</h2>
              <p className="mb-0">{UI_TEXT.adjustFilters}</p>
            </div>
          ) : (
            <>
              <p className="visually-hidden" role="status">
                {`${counted(shown.length, 'challenge')} ${agreeing(shown.length, 'matches', 'match')}`}
              </p>
              <Row
                xs={1}
                md={2}
                xl={3}
                className="g-3 list-unstyled"
                as="ul"
                aria-label="Challenges"
                role="list"
              >
                {slice.items.map((c) => (
                  <Col as="li" key={c._id}>
                    <ChallengeCard
                      challenge={c}
                      solved={mine.has(c._id)}
                      teamDone={team ? team.has(c._id) : null}
                      lockedBy={(c.prerequisites ?? [])
                        .filter((p) => !mine.has(p) && !team?.has(p))
                        .map((p) => challenges.find((x) => x._id === p)?.name ?? 'another challenge')}
                    />
                  </Col>
                ))}
              </Row>
              <Pagination
                label="Challenge pages"
                page={slice.page}
                pageCount={slice.pageCount}
                onPage={setPage}
              />
            </>
          )}
        </>
      )}
    </Container>
  );
}

/** A site that has not opened yet: when its event starts (the site info's window), if still ahead. */
function OpensAt() {
  const info = useSiteInfo().data;
  const start = info ? Date.parse(info.eventStart) : NaN;
  if (!(start > Date.now())) return null;
  const at = new Date(start).toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'short' });
  return <span data-testid="opens-at"> The event opens on {at}.</span>;
}
