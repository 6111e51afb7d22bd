import { z } from 'zod';
import { endpoint } from './common.js';
import { ROUTES } from './routes.js';

/** The Discord webhook's state for the admin panel (issue 15). */
export const WebhookStatus = z.object({
  /** Whether DISCORD_WEBHOOK_URL is set. */
  configured: z.boolean(),
  /** What it carries (WEBHOOK_EVENTS). */
  events: z.array(z.string()),
  /** Messages in the outbox, not yet delivered. */
  pending: z.number(),
  last_success_at: z.string().nullable(),
  last_error: z.string().nullable(),
});
export type WebhookStatus = z.infer<typeof WebhookStatus>;

export const webhookStatus = endpoint({
  ...ROUTES.webhook.webhookStatus,
  body: undefined,
  response: WebhookStatus,
});

export const WEBHOOK_ADMIN_ENDPOINTS = [webhookStatus] as const;
