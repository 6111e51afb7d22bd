import { Container } from 'react-bootstrap';
import { MarkdownHtml } from '../../../components/MarkdownHtml';
import { PageLoading } from '../../../components/PageLoading';
import { QueryError } from '../../../components/QueryError';
import { useSiteInfo } from '../../../lib/site-info';

/** The event's rules (the Rules setting, Markdown rendered and sanitised on both sides). */
export function RulesPage() {
  const site = useSiteInfo();
  return (
    <Container className="py-4">
      <h1>Rules</h1>
      {site.isError && <QueryError what="the rules" error={site.error} onRetry={() => site.refetch()} />}
      {site.isPending && <PageLoading />}
      {site.data && <MarkdownHtml html={site.data.rules_html} />}
    </Container>
  );
}
