import { ResetPasswordPage } from '../../features/auth/components/ResetPasswordPage';

export default function ResetPasswordRoute() {
  return <ResetPasswordPage />;
}
