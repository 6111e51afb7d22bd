import { useEffect } from 'react';
import { Badge, Card, Container } from 'react-bootstrap';
import { PageLoading } from '../../../components/PageLoading';
import { QueryError } from '../../../components/QueryError';
import { LocalTime } from '../../../components/LocalTime';
import SafeHtml from '../../../components/SafeHtml';
import { useAnnouncements, useUnreadAnnouncements } from '../../../lib/announcements';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const formatDate = (date: Date) => dateFormat.format(date);

/** /announcements: pinned first, then newest first; opening the page marks them all read. */
export function AnnouncementsPage() {
  const list = useAnnouncements();
  const { markRead } = useUnreadAnnouncements();
  useEffect(() => {
    if (list.data) markRead(list.data);
  }, [list.data, markRead]);

  return (
    <Container className="py-4">
      <h1 className="mb-4">Announcements</h1>
      {list.isPending && <PageLoading />}
      {list.isError && (
        <QueryError what="the announcements" error={list.error} onRetry={() => list.refetch()} />
      )}
      {list.data?.length === 0 && <p>No announcements yet.</p>}
      {list.data?.map((a) => (
        <Card
          as="article"
          key={a._id}
          className="mb-3"
          aria-labelledby={`announcement-${a._id}`}
          data-testid="announcement"
        >
          <Card.Body>
            <Card.Title as="h2" className="h4" id={`announcement-${a._id}`}>
              {a.pinned && (
                <Badge bg="warning" text="dark" className="me-2 align-middle fs-6">
                  Pinned
                </Badge>
              )}
              {a.title}
            </Card.Title>
            <Card.Subtitle className="mb-3 text-body-secondary small">
              <LocalTime iso={a.created_at} format={formatDate} />
              {a.updated_at !== a.created_at && ' (edited)'}
            </Card.Subtitle>
            <SafeHtml
              html={a.body_html}
              className="announcement-body text-break"
              testId="announcement-body"
            />
          </Card.Body>
        </Card>
      ))}
    </Container>
  );
}
