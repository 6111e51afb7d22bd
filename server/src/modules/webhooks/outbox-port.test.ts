import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { fakeDiscordWithFastRetries } from '../../../test/fake-discord.js';

/**
 * The outbox hears of what the modules announce through the port's transaction phase: its message
 * is written with the cause, so a cause that rolls back sends nothing and one that commits sends
 * once (docs/architecture.md, "The port").
 */
const fake = fakeDiscordWithFastRetries();

const until = (check: () => void | Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 20 });

for (const kind of testDatabaseKinds()) {
  describe(`the outbox on the port on ${kind}`, () => {
    let t: TestApp;
    beforeEach(async () => {
      fake.reset();
      t = await buildTestApp(kind, {
        DISCORD_WEBHOOK_URL: fake.url,
        WEBHOOK_EVENTS: 'announcements,first-blood,site',
      });
    });
    afterEach(async () => {
      await t.close();
    });

    const outboxRows = async () =>
      Number(
        (
          await t.ctx.database.db
            .selectFrom('webhook_outbox')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('writes nothing for a cause that rolls back, and one message for one that commits', async () => {
      const events = t.ctx.domainEvents;
      await expect(
        t.ctx.database.transaction(async (trx) => {
          await events.emitInTransaction(trx, 'first-blood', { challenge: 'Rolled', competitor: 'back' });
          throw new Error('the cause failed after announcing');
        }),
      ).rejects.toThrow('the cause failed');
      expect(await outboxRows()).toBe(0);

      await t.ctx.database.transaction(async (trx) => {
        await events.emitInTransaction(trx, 'first-blood', { challenge: 'Kept', competitor: 'ann' });
      });
      await events.emit('first-blood', { challenge: 'Kept', competitor: 'ann' });
      await until(() => expect(fake.delivered).toHaveLength(1));
      expect(fake.delivered[0]!.content).toContain('**Kept**');
      await until(async () => expect(await outboxRows()).toBe(0));
      expect(fake.delivered).toHaveLength(1);
    });

    it('the committed phase alone writes no message (the outbox listens in the transaction)', async () => {
      await t.ctx.domainEvents.emit('announcement.posted', { id: 1, title: 'After', body: 'the commit' });
      expect(await outboxRows()).toBe(0);
      expect(fake.delivered).toEqual([]);
    });
  });
}
