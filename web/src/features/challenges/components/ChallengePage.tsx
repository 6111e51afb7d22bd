import { MESSAGES } from '@ctf/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Card, Container } from 'react-bootstrap';
import { Link, useSearchParams } from 'react-router';
import { QueryError } from '../../../components/QueryError';
import { useCurrentUser } from '../../../lib/auth';
import { useChallengeDetail } from '../api/challenge-detail';
import { useCompletions } from '../../../lib/completions';
import { useRefreshAfterScore } from '../api/invalidate';
import type { RatingOutcome } from '../api/rate-challenge';
import { ChallengeDetailView } from './ChallengeDetailView';
import { FlagForm } from './FlagForm';
import { HintsPanel } from './HintsPanel';
import { RatingForm } from './RatingForm';
import { TeamFlagPanel } from './TeamFlagPanel';
import { InstancePanel } from './InstancePanel';
import { PublishedWriteups } from './PublishedWriteups';
import { SolutionPanel } from './SolutionPanel';
import { YourWriteup } from './YourWriteup';
import { useHydrated } from '../../../lib/hydration';
import { useSiteInfo } from '../../../lib/site-info';
import { writeupsOpenAt } from '@ctf/contract';

/** docs/product.md §2 Challenge page: detail, flag form, then the rating prompt or the thank-you panel. */
export function ChallengePage() {
  const [params] = useSearchParams();
  const id = params.get('id')?.trim() ?? '';
  const me = useCurrentUser();
  const detail = useChallengeDetail(id);
  const onTeam = !!me.data?.team_id;
  const completions = useCompletions(onTeam);
  const refresh = useRefreshAfterScore();
  const site = useSiteInfo();
  // The writeup panels are decided by the reader's clock, which the server's rendering cannot
  // know: a page it rendered (only while neither may show) draws them once hydrated.
  const hydrated = useHydrated();
  const byClock = hydrated ? site.data : undefined;
  const [ratingMessage, setRatingMessage] = useState<RatingOutcome | null>(null);

  const solved = useMemo(() => !!me.data?.completions.some((c) => c.id === id), [me.data, id]);
  const rated = !!me.data?.user_rates.includes(id);
  // No team icon until the team's completions are known, rather than a wrong one.
  const teamDone =
    onTeam && completions.data ? completions.data.teamCompletions.some((c) => c.id === id) : null;

  // When the rating form gives way to the thank-you panel, the focus goes there, not to the page top.
  const thanks = useRef<HTMLDivElement>(null);
  const justRated = useRef(false);
  useEffect(() => {
    if (rated && justRated.current) {
      justRated.current = false;
      thanks.current?.focus();
    }
  }, [rated]);

  function onRatingMessage(outcome: RatingOutcome) {
    justRated.current = outcome.ok;
    setRatingMessage(outcome);
    if (outcome.ok) void refresh(id);
  }

  if (!id) {
    return (
      <Container className="py-3">
        <h1>Challenge</h1>
        <Alert variant="warning">
          No challenge was chosen. Pick one on the{' '}
          <Link to="/compete" className="alert-link">
            Compete
          </Link>{' '}
          page.
        </Alert>
      </Container>
    );
  }

  return (
    <Container className="py-3">
      <p>
        <Link to="/compete">← Back to challenges</Link>
      </p>
      {detail.isPending ? (
        <p role="status">Loading challenge…</p>
      ) : detail.isError ? (
        <>
          <h1>Challenge</h1>
          <QueryError what="this challenge" error={detail.error} onRetry={() => detail.refetch()} />
        </>
      ) : (
        <>
          <ChallengeDetailView challenge={detail.data} solved={solved} teamDone={teamDone} />
          {detail.data.locked ? (
            <Alert variant="secondary" data-testid="challenge-locked">
              {MESSAGES.challengeLocked}
            </Alert>
          ) : (
            <>
              <HintsPanel hints={detail.data.hints} onUnlocked={() => void detail.refetch()} />
              {detail.data.team_flag !== undefined && <TeamFlagPanel flag={detail.data.team_flag} />}
              {detail.data.instance && <InstancePanel challengeId={id} />}
              <FlagForm
                challengeId={id}
                onSolved={() => void refresh(id)}
                attemptsLeft={detail.data.attempts_left}
                onAnswered={() => detail.data.attempts_left !== null && void detail.refetch()}
              />
            </>
          )}
          {detail.data.solution_html !== undefined && (
            <SolutionPanel html={detail.data.solution_html} files={detail.data.solution_files ?? []} />
          )}
          {byClock && (solved || teamDone === true) && writeupsOpenAt(byClock.writeups, new Date()) && (
            <YourWriteup challengeId={id} settings={byClock.writeups} />
          )}
          {byClock && Date.parse(byClock.eventEnd) <= Date.now() && <PublishedWriteups challengeId={id} />}
          {solved && (
            <section aria-labelledby="rating-heading" className="my-4">
              <h2 id="rating-heading" className="h4">
                Rating
              </h2>
              {rated ? (
                <Card body border="success" data-testid="rating-thanks" ref={thanks} tabIndex={-1}>
                  <p className="mb-0">
                    <span aria-hidden="true">★ </span>Thank you for rating this challenge! Your rating helps
                    other players choose what to try next.
                  </p>
                </Card>
              ) : (
                <RatingForm challengeId={id} onMessage={onRatingMessage} />
              )}
              <div aria-live="polite" className="mt-3" data-testid="rating-message">
                {ratingMessage && <Alert variant={ratingVariant(ratingMessage)}>{ratingMessage.text}</Alert>}
              </div>
            </section>
          )}
        </>
      )}
    </Container>
  );
}

/** docs/product.md §8: the rating message is danger-styled when it contains 'Error'. */
function ratingVariant(outcome: RatingOutcome): 'danger' | 'success' | 'warning' {
  if (outcome.text.includes('Error')) return 'danger';
  return outcome.ok ? 'success' : 'warning';
}
