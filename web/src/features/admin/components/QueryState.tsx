import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { QueryError } from '../../../components/QueryError';

/** Loading and error text for a tab's list, or the list itself once it is there. */
export function QueryState<T>({
  query,
  what,
  children,
}: {
  query: UseQueryResult<T>;
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <p>Loading {what}…</p>;
  if (query.isError)
    return <QueryError what={`the ${what}`} error={query.error} onRetry={() => query.refetch()} />;
  return <>{children(query.data)}</>;
}
