import { webhookApi } from '@ctf/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { route } from '../../plugins/route.js';
import { getWebhookStatus, startWebhookSender } from './webhooks.service.js';

/** The admin's view of the Discord webhook, and this process's sender (started when ready). */
export function registerWebhookRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, webhookApi.webhookStatus, 'admin', async () => getWebhookStatus(ctx));
  let sender: ReturnType<typeof startWebhookSender> = null;
  app.addHook('onReady', async () => {
    sender = startWebhookSender(ctx);
  });
  app.addHook('preClose', async () => {
    await sender?.stop();
  });
}
