import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { Layout } from '../components/Layout';

// Thin lazy pages: each route's code loads only when it is visited.
const Home = lazy(() => import('./routes/home'));
const Login = lazy(() => import('./routes/login'));
const Profile = lazy(() => import('./routes/profile'));
const Compete = lazy(() => import('./routes/compete'));
const Challenge = lazy(() => import('./routes/challenge'));
const RateChallenge = lazy(() => import('./routes/rate-challenge'));
const ChallengeHelp = lazy(() => import('./routes/challenge-help'));
const KaliGuide = lazy(() => import('./routes/kali-setup-guide'));
const Leaderboard = lazy(() => import('./routes/leaderboard'));
const AdminPanel = lazy(() => import('./routes/admin-panel'));
const NotFound = lazy(() => import('./routes/not-found'));

/** The routes of SPEC.md §2 (the server redirects /admin, /tools and /discord itself). */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Home />} />
        <Route path="login" element={<Login />} />
        <Route path="profile" element={<Profile />} />
        <Route path="compete" element={<Compete />} />
        <Route path="challenge" element={<Challenge />} />
        <Route path="rate-challenge" element={<RateChallenge />} />
        <Route path="challenge_help" element={<ChallengeHelp />} />
        <Route path="kali-setup-guide" element={<KaliGuide />} />
        <Route path="leaderboard" element={<Leaderboard />} />
        <Route path="admin/panel" element={<AdminPanel />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
