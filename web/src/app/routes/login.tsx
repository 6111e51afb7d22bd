import { LoginPage } from '../../features/auth/components/LoginPage';

export default function LoginRoute() {
  return <LoginPage />;
}
