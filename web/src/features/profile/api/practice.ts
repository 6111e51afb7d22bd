import { usersApi } from '@ctf/contract';
import { useQuery } from '@tanstack/react-query';
import { fetchData } from '../../../lib/api';

/** GET /api/user/practice: the caller's practice solves (after the end, never scored). */
export function usePracticeSolves() {
  return useQuery({ queryKey: ['user', 'practice'], queryFn: () => fetchData(usersApi.practiceSolves) });
}
