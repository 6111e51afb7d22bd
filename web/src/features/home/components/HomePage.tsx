import { Container } from 'react-bootstrap';
import { Link } from 'react-router';
import { QueryError } from '../../../components/QueryError';
import { useSiteInfo } from '../../site/api/site-info';
import { Countdown } from './Countdown';
import { Faq } from './Faq';
import { PinnedAnnouncement } from './PinnedAnnouncement';

export function HomePage() {
  const site = useSiteInfo();
  return (
    <Container className="py-4">
      <PinnedAnnouncement />
      <section className="text-center my-4">
        <h1 className="display-4">Capture The Flag</h1>
        <p className="lead">A week-long security competition for students of all skill levels.</p>
        <Link to="/profile" className="btn btn-primary btn-lg">
          Register Here
        </Link>
        {site.data && <Countdown start={site.data.eventStart} end={site.data.eventEnd} />}
        {site.isError && (
          <QueryError what="the event dates" error={site.error} onRetry={() => site.refetch()} className="my-4" />
        )}
      </section>
      <section aria-labelledby="about-heading" className="my-5">
        <h2 id="about-heading">About</h2>
        <p>
          Our club&apos;s Capture The Flag runs for a week. Solve challenges in web exploitation, cryptography, reverse
          engineering, forensics, steganography, binary exploitation and more, alone or in a team of up to four.
        </p>
        <p>
          The event offers about <strong>{site.data?.prizeText ?? '$1000'}</strong> in prizes to the top teams or
          individuals on the leaderboard.
        </p>
      </section>
      <Faq />
    </Container>
  );
}
