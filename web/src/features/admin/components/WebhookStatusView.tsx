import { useWebhookStatus } from '../api/announcements';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The Discord webhook's state: whether it is set, what it carries, what waits, how it went last. */
export function WebhookStatusView() {
  const status = useWebhookStatus();
  if (!status.data) return null;
  const s = status.data;
  if (!s.configured) {
    return (
      <p className="text-body-secondary" data-testid="webhook-status">
        Discord webhook: not configured (set DISCORD_WEBHOOK_URL).
      </p>
    );
  }
  return (
    <p data-testid="webhook-status">
      Discord webhook: on for {s.events.join(', ') || 'nothing'}; {s.pending} waiting to be sent
      {s.last_success_at && <>; last delivered {when.format(new Date(s.last_success_at))}</>}
      {s.last_error && <span className="text-danger-emphasis">; last error: {s.last_error}</span>}.
    </p>
  );
}
