import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useIsAdmin, useIsAuthenticated } from '../lib/auth';
import { PageLoading } from './PageLoading';

/** User pages: /login when the session check says the visitor is not logged in. */
export function RequireUser({ children }: { children: ReactNode }) {
  const auth = useIsAuthenticated();
  if (auth.isPending) return <PageLoading />;
  if (!auth.data) return <Navigate to="/login" replace />;
  return <>{children}</>;
}

/** The admin panel: /login when the admin check fails. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const admin = useIsAdmin();
  if (admin.isPending) return <PageLoading />;
  if (!admin.data) return <Navigate to="/login" replace />;
  return <>{children}</>;
}
