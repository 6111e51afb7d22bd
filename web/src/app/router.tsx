import { lazy, type ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import { Layout } from '../components/Layout';
import { useAfterFirstView } from './first-view';

type PageModule = { default: ComponentType };

/**
 * A thin lazy page: its code loads only when it is visited. The page opened first is loaded
 * before the app's first render (preloadPage), so that render draws it at once: through
 * React.lazy it would draw the loading notice first, and React holds a revealed Suspense
 * boundary for at least 300 ms, which on a phone is most of the wait for the page.
 */
function lazyPage(load: () => Promise<PageModule>) {
  const Lazy = lazy(load);
  let loaded: ComponentType | undefined;
  // NOTE: `loaded` is only ever set before the first render (by preloadPage), never after the
  // page has been drawn through Lazy: switching between the two would remount the page.
  function Page() {
    useAfterFirstView();
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Lazy />;
  }
  const preload = () =>
    load().then((m) => {
      loaded = m.default;
    });
  return { Page, preload };
}

const HOME = lazyPage(() => import('./routes/home'));
const NOT_FOUND = lazyPage(() => import('./routes/not-found'));
/** The routes of docs/product.md §2 (the server redirects /admin, /tools and /discord itself). */
const PAGES: Record<string, ReturnType<typeof lazyPage>> = {
  login: lazyPage(() => import('./routes/login')),
  profile: lazyPage(() => import('./routes/profile')),
  compete: lazyPage(() => import('./routes/compete')),
  challenge: lazyPage(() => import('./routes/challenge')),
  'rate-challenge': lazyPage(() => import('./routes/rate-challenge')),
  challenge_help: lazyPage(() => import('./routes/challenge-help')),
  'kali-setup-guide': lazyPage(() => import('./routes/kali-setup-guide')),
  rules: lazyPage(() => import('./routes/rules')),
  leaderboard: lazyPage(() => import('./routes/leaderboard')),
  'admin/panel': lazyPage(() => import('./routes/admin-panel')),
  announcements: lazyPage(() => import('./routes/announcements')),
  'reset-password': lazyPage(() => import('./routes/reset-password')),
};

/** Loads the code of the page at `pathname` (call before the first render; a failure is left to React.lazy). */
export function preloadPage(pathname: string): Promise<void> {
  const path = pathname.replace(/^\/+|\/+$/g, '');
  const page = path === '' ? HOME : (PAGES[path] ?? NOT_FOUND);
  return page.preload().catch(() => undefined);
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HOME.Page />} />
        {Object.entries(PAGES).map(([path, { Page }]) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
        <Route path="*" element={<NOT_FOUND.Page />} />
      </Route>
    </Routes>
  );
}
