import { HomePage } from '../../features/home/components/HomePage';

export default function HomeRoute() {
  return <HomePage />;
}
