import { CHALLENGE_HELP_PORT, DELAYS_MS, UI_TEXT } from '@ctf/contract';
import { useEffect, useState } from 'react';
import { Button, Card, Container } from 'react-bootstrap';
import { Link } from 'react-router';
import { QueryError } from '../../../components/QueryError';
import { useSiteInfo } from '../../../lib/site-info';

/** /challenge_help: how to reach a remote challenge with netcat (docs/product.md §2, §9). */
export function ChallengeHelpPage() {
  const site = useSiteInfo();
  const host = site.data?.challengeHost ?? '…';
  const port = site.data?.challengePort ?? CHALLENGE_HELP_PORT;
  const command = `nc ${host} ${port}`;
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const id = setTimeout(() => setCopied(false), DELAYS_MS.copyFeedback);
    return () => clearTimeout(id);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(command);
      setCopied(true);
    } catch {
      window.alert(UI_TEXT.copyFailed);
    }
  }

  return (
    <Container className="py-4">
      <h1>Connecting to remote challenges</h1>
      <p>
        Some challenges run on a remote server instead of giving you a file. You talk to them over a plain TCP
        connection with <strong>netcat</strong> (<code>nc</code>), a tool that comes with Kali Linux, macOS
        and most Linux systems.
      </p>
      {site.isError && (
        <QueryError what="the challenge host" error={site.error} onRetry={() => site.refetch()} />
      )}
      <Card body className="my-3">
        <p className="mb-2">For example, to reach a challenge on port {port} of our challenge host, run:</p>
        <div className="d-flex align-items-center gap-2 flex-wrap">
          <pre className="command bg-body-tertiary p-2 mb-0 flex-grow-1" data-testid="nc-command">
            <code>{command}</code>
          </pre>
          <Button variant="outline-primary" onClick={() => void copy()} aria-live="polite">
            {copied ? 'Copied!' : 'Copy command'}
          </Button>
        </div>
      </Card>
      <h2 className="h4">What to expect</h2>
      <ul>
        <li>The challenge prints a prompt or a question; type your answer and press Enter.</li>
        <li>Press Ctrl+C to disconnect. Each challenge page names its own host and port when it has one.</li>
        <li>
          For scripted solutions, Python&apos;s <code>pwntools</code> (<code>remote(host, port)</code>) is
          handy.
        </li>
        <li>On Windows, use netcat inside a Kali virtual machine or WSL.</li>
      </ul>
      <p>
        Need a ready-made environment? Follow the <Link to="/kali-setup-guide">Kali setup guide</Link>.
      </p>
    </Container>
  );
}
