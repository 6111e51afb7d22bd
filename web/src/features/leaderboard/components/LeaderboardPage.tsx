import { LEADERBOARD_SCROLL_HEIGHT_PX } from '@ctf/contract';
import { useState } from 'react';
import { Badge, Container, Form } from 'react-bootstrap';
import { QueryError } from '../../../components/QueryError';
import { useLeaderboard } from '../api/leaderboard';
import { badgeFor, rankAndSearch } from '../ranking';

/** SPEC.md §2 Leaderboard: searchable names and points; the list scrolls at 400px. */
export function LeaderboardPage() {
  const board = useLeaderboard();
  const [search, setSearch] = useState('');
  const entries = rankAndSearch(board.data ?? [], search);

  return (
    <Container className="py-3" style={{ maxWidth: 720 }}>
      <h1>Leaderboard</h1>
      <Form.Group controlId="leaderboard-search" className="mb-3">
        <Form.Label>Search</Form.Label>
        <Form.Control
          type="search"
          placeholder="Team or player name"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </Form.Group>
      {board.isPending ? (
        <p role="status">Loading the leaderboard…</p>
      ) : board.isError ? (
        <QueryError what="the leaderboard" error={board.error} onRetry={() => board.refetch()} />
      ) : entries.length === 0 ? (
        <p role="status">{search.trim() ? 'No names match your search.' : 'No one has scored yet.'}</p>
      ) : (
        <div
          className="leaderboard-list border rounded"
          style={{ maxHeight: LEADERBOARD_SCROLL_HEIGHT_PX }}
          tabIndex={0}
          role="region"
          aria-label="Leaderboard list"
        >
          <ol className="list-group list-group-flush" aria-label="Leaderboard">
            {entries.map((e) => {
              const badge = badgeFor(e.rank);
              return (
                <li
                  key={`${e.rank}-${e.name}`}
                  className="list-group-item d-flex align-items-center gap-3"
                  data-testid="leaderboard-entry"
                >
                  <span className="fw-bold text-nowrap" style={{ minWidth: '2.5em' }}>
                    #{e.rank}
                  </span>
                  <span className="flex-grow-1 text-break">{e.name}</span>
                  <Badge pill bg={badge.bg} text={badge.text} data-testid="points-badge">
                    {e.points} points
                  </Badge>
                </li>
              );
            })}
          </ol>
        </div>
      )}
    </Container>
  );
}
