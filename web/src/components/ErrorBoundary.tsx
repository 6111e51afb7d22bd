import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Alert, Button, Container } from 'react-bootstrap';

interface Props {
  children: ReactNode;
  /**
   * Changes on every navigation (the location's key): a page that failed is dropped when the
   * visitor goes elsewhere, so one broken page never breaks the next one.
   */
  resetKey?: string;
}

interface State {
  error: Error | null;
  resetKey: string | undefined;
}

/** A page that throws shows what happened and a way on, never a blank screen. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    // Navigation: forget the last page's failure and render the new page.
    if (props.resetKey !== state.resetKey) return { error: null, resetKey: props.resetKey };
    return null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Page failed', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Container className="py-4">
        <Alert variant="danger">
          <Alert.Heading as="h1" className="h4">
            Something went wrong on this page
          </Alert.Heading>
          <p>The page could not be shown. Reload to try again; if it keeps failing, tell the organisers.</p>
          <Button variant="danger" onClick={() => window.location.reload()}>
            Reload
          </Button>{' '}
          <a className="btn btn-outline-dark" href="/">
            Go home
          </a>
        </Alert>
      </Container>
    );
  }
}
