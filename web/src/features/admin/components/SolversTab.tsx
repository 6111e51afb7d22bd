import { ListGroup } from 'react-bootstrap';
import { useSolvers } from '../api/challenges';
import { QueryState } from './QueryState';

/** Each challenge's name with the usernames of those who solved it, the first blood marked. */
export function SolversTab() {
  const solvers = useSolvers();
  return (
    <QueryState query={solvers} what="solvers">
      {(data) => {
        const entries = Object.entries(data.solvers);
        if (entries.length === 0) return <p>No challenges yet.</p>;
        return (
          <ListGroup aria-label="Solvers">
            {entries.map(([name, usernames]) => (
              <ListGroup.Item key={name} data-testid="solvers-entry">
                <h2 className="h6 mb-1">
                  {name} <span className="text-body-secondary">({usernames.length})</span>
                </h2>
                {usernames.length === 0 ? (
                  <span className="text-body-secondary">No solvers yet</span>
                ) : (
                  <span>
                    {usernames.map((u, i) => (
                      <span key={`${i}-${u}`}>
                        {i > 0 && ', '}
                        {data.first_bloods?.[name] === u ? (
                          <strong data-testid="first-blood-solver">
                            <span aria-hidden="true">🩸 </span>
                            {u}
                            <span className="visually-hidden"> (first blood)</span>
                          </strong>
                        ) : (
                          u
                        )}
                      </span>
                    ))}
                  </span>
                )}
              </ListGroup.Item>
            ))}
          </ListGroup>
        );
      }}
    </QueryState>
  );
}
