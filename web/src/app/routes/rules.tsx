import { RulesPage } from '../../features/rules/components/RulesPage';

export default function RulesRoute() {
  return <RulesPage />;
}
