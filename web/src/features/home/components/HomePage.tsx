import { Container } from 'react-bootstrap';
import { Link } from 'react-router';
import { MarkdownHtml } from '../../../components/MarkdownHtml';
import { QueryError } from '../../../components/QueryError';
import { useSiteInfo } from '../../../lib/site-info';
import { Countdown } from './Countdown';
import { Faq } from './Faq';
import { PinnedAnnouncement } from './PinnedAnnouncement';

/** docs/product.md §2 home page; its name, tagline, About and FAQ are the event's settings. */
export function HomePage() {
  const site = useSiteInfo();
  const info = site.data;
  return (
    <Container className="py-4">
      <PinnedAnnouncement />
      <section className="text-center my-4">
        <h1 className="display-4">{info?.name ?? 'Capture The Flag'}</h1>
        {info?.tagline && <p className="lead">{info.tagline}</p>}
        <Link to="/profile" className="btn btn-primary btn-lg">
          Register Here
        </Link>
        {info && <Countdown start={info.eventStart} end={info.eventEnd} />}
        {site.isError && (
          <QueryError
            what="the event dates"
            error={site.error}
            onRetry={() => site.refetch()}
            className="my-4"
          />
        )}
      </section>
      {info && (
        <>
          <section aria-labelledby="about-heading" className="my-5">
            <h2 id="about-heading">About</h2>
            <MarkdownHtml html={info.about_html} />
            {info.prizeText !== '' && <p data-testid="prize-text">{info.prizeText}</p>}
            <p>
              <Link to="/rules">Read the rules of the event</Link>
            </p>
          </section>
          <Faq html={info.faq_html} />
        </>
      )}
    </Container>
  );
}
