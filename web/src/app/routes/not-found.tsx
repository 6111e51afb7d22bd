import { Container } from 'react-bootstrap';
import { Link } from 'react-router';

export default function NotFoundRoute() {
  return (
    <Container className="py-5">
      <h1>Page not found</h1>
      <p>There is no page at this address. It may have moved, or the link may be mistyped.</p>
      <Link to="/" className="btn btn-primary">
        Go to the home page
      </Link>
    </Container>
  );
}
