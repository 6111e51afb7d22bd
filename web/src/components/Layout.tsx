import { Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from './ErrorBoundary';
import { LiveUpdates } from './LiveUpdates';
import { NavBar } from './NavBar';
import { PageLoading } from './PageLoading';
import { isSamePage } from '../lib/same-page';
import { useSiteInfo } from '../lib/site-info';
import { pageTitle } from './page-title';

export function Layout() {
  const location = useLocation();
  const main = useRef<HTMLElement>(null);
  const shownKey = useRef(location.key);

  const siteName = useSiteInfo().data?.name;

  useEffect(() => {
    document.title = pageTitle(location.pathname, location.search, siteName);
  }, [location.pathname, location.search, siteName]);

  // After moving to another page, it starts at the top and the focus at its content, as after a
  // full page load: a screen reader reads the new page, and Tab goes on from there rather than
  // from the link just used. (Not on the first page, nor for the skip link's #main, nor for a
  // change that stays on the same page, such as an admin tab: the focus stays on the tab.)
  useEffect(() => {
    if (shownKey.current === location.key) return;
    shownKey.current = location.key;
    if (location.hash || isSamePage(location)) return;
    window.scrollTo(0, 0);
    main.current?.focus({ preventScroll: true });
  }, [location]);

  return (
    <>
      <a className="visually-hidden-focusable position-absolute top-0 start-0 p-2 bg-light" href="#main">
        Skip to content
      </a>
      <NavBar />
      <LiveUpdates />
      <main id="main" tabIndex={-1} ref={main}>
        <ErrorBoundary resetKey={location.key}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
    </>
  );
}
