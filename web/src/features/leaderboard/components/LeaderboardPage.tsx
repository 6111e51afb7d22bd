import { LEADERBOARD_PAGE, counted } from '@ctf/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Badge, Button, Container, Form } from 'react-bootstrap';
import { describeFailure, QueryError } from '../../../components/QueryError';
import { useCurrentUser } from '../../../lib/auth';
import { useSiteInfo } from '../../../lib/site-info';
import {
  fetchMyRank,
  refreshShownLeaderboard,
  subscribeBoardChanges,
  useFirstPage,
} from '../api/leaderboard';
import { useFreezeAt } from '../../../lib/site-info';
import { badgeFor } from '../ranking';
import { useCalmRefresh } from '../use-calm-refresh';
import { BoardList } from './BoardList';
import { FreezeBanner } from './FreezeBanner';
import { ScoreGraph } from './ScoreGraph';
import { ValueOptions } from '../../../components/ValueOptions';

/** Typing pauses this long before the search is sent to the server. */
const SEARCH_DELAY_MS = 250;

/**
 * docs/product.md §2 Leaderboard: searchable names and points, the top 3 in gold, silver and the third
 * colour, the list scrolling at 400 px. At scale (issue 20): the podium first, then a windowed
 * list asked for page by page; the search runs on the server over the whole board; "My position"
 * scrolls to the caller's row; open pages refresh calmly (use-calm-refresh).
 */
export function LeaderboardPage() {
  const client = useQueryClient();
  const freezeAt = useFreezeAt();
  const me = useCurrentUser();
  const divisions = useSiteInfo().data?.divisions ?? [];
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  // Issue 19: '' is the whole board; a division's name shows its board, ranked within it.
  const [chosen, setChosen] = useState('');
  const division = divisions.includes(chosen) ? chosen : '';
  const timer = useRef<number | undefined>(undefined);
  const podium = useFirstPage('', division);
  const first = useFirstPage(search, division);
  const [highlight, setHighlight] = useState<number | null>(null);
  const [scrollRequest, setScrollRequest] = useState<{ rank: number } | null>(null);
  const [note, setNote] = useState('');

  // Board changes from the live stream, refreshed calmly: only the pages on screen, at most every 5 s.
  useCalmRefresh(
    useCallback(() => void refreshShownLeaderboard(client), [client]),
    subscribeBoardChanges,
  );
  useEffect(() => () => window.clearTimeout(timer.current), []);

  function onSearch(text: string) {
    setInput(text);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setSearch(text.trim()), SEARCH_DELAY_MS);
  }

  async function showMyPosition() {
    setNote('');
    let rank: number | null;
    try {
      rank = await fetchMyRank(division);
    } catch (err) {
      setNote(describeFailure(err));
      return;
    }
    if (rank === null) {
      setHighlight(null);
      setNote(
        division ? `You are not on the ${division} leaderboard.` : 'You are not on the leaderboard yet.',
      );
      return;
    }
    // The caller's row is on the whole board: leave any search.
    window.clearTimeout(timer.current);
    setInput('');
    setSearch('');
    setHighlight(rank);
    setScrollRequest({ rank });
    setNote(`Your position: #${rank}.`);
  }

  const top = (podium.data?.rows ?? []).slice(0, 3);
  const callerRank = podium.data?.callerRank ?? null;
  const total = first.data?.total ?? 0;

  // Once shown, the highlight follows the caller's rank as refreshes bring a new one (a solve
  // moves them); the rank the button just asked for is never replaced by an older one.
  const seenRank = useRef(callerRank);
  useEffect(() => {
    if (callerRank === seenRank.current) return;
    seenRank.current = callerRank;
    if (callerRank !== null) setHighlight((shown) => (shown === null ? null : callerRank));
  }, [callerRank]);

  return (
    <Container className="py-3" style={{ maxWidth: 720 }}>
      <h1>Leaderboard</h1>
      <FreezeBanner freezeAt={freezeAt.data ?? null} isAdmin={me.data?.is_admin === true} />
      <ScoreGraph division={division} />
      {top.length > 0 && (
        <section aria-label="Podium" className="mb-3">
          <ol className="list-unstyled row g-2 mb-0">
            {top.map((e) => {
              const badge = badgeFor(e.rank);
              return (
                <li key={e.rank} className="col-12 col-sm-4" data-testid="podium-entry">
                  <div className="border rounded p-2 h-100 text-center">
                    <Badge pill bg={badge.bg} text={badge.text} data-testid="podium-badge">
                      #{e.rank}
                    </Badge>
                    <div className="fw-bold text-break">{e.name}</div>
                    <div className="small">{counted(e.points, 'point')}</div>
                  </div>
                </li>
              );
            })}
          </ol>
        </section>
      )}
      <div className="d-flex flex-wrap align-items-end gap-2 mb-3">
        {divisions.length > 0 && (
          <Form.Group controlId="leaderboard-division">
            <Form.Label>Division</Form.Label>
            <Form.Select
              value={division}
              onChange={(e) => {
                setChosen(e.target.value);
                setHighlight(null);
                setScrollRequest(null);
                setNote('');
              }}
            >
              <option value="">All divisions</option>
              <ValueOptions values={divisions} />
            </Form.Select>
          </Form.Group>
        )}
        <Form.Group controlId="leaderboard-search" className="flex-grow-1">
          <Form.Label>Search</Form.Label>
          <Form.Control
            type="search"
            placeholder="Team or player name"
            value={input}
            maxLength={LEADERBOARD_PAGE.maxSearchLength}
            onChange={(e) => onSearch(e.target.value)}
          />
        </Form.Group>
        {callerRank !== null && (
          <Button variant="outline-primary" onClick={() => void showMyPosition()}>
            My position
          </Button>
        )}
      </div>
      {note && (
        <p role="status" className="small" data-testid="position-note">
          {note}
        </p>
      )}
      {first.isPending ? (
        <p role="status">Loading the leaderboard…</p>
      ) : first.isError ? (
        <QueryError what="the leaderboard" error={first.error} onRetry={() => first.refetch()} />
      ) : total === 0 ? (
        <p role="status">{search ? 'No names match your search.' : 'No one has scored yet.'}</p>
      ) : (
        // A new search starts at its own top.
        <BoardList
          key={`${division}\n${search}`}
          search={search}
          division={division}
          total={total}
          highlight={highlight}
          scrollRequest={scrollRequest}
        />
      )}
    </Container>
  );
}
