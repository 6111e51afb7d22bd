import { LIVE_EVENT_REPLAY_MS, TOO_MANY_STREAMS_MESSAGE } from '@ctf/contract';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.js';
import type { AppContext } from '../../context.js';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.js';
import { addChallenge, openSite } from '../../../test/compete.js';
import { testDatabaseKinds } from '../../../test/databases.js';
import { openEventStream, type SseClient } from '../../../test/sse-client.js';
import { publishLiveEvent } from './events.service.js';

async function listen(app: TestApp['app']): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

const until = (check: () => void) => vi.waitFor(check, { timeout: 5000, interval: 10 });

for (const kind of testDatabaseKinds()) {
  describe(`live event stream on ${kind}`, () => {
    let t: TestApp;
    let base: string;
    const open: SseClient[] = [];
    const stream = async (headers: Record<string, string> = {}) => {
      const s = await openEventStream(base, headers);
      open.push(s);
      return s;
    };

    beforeEach(async () => {
      t = await buildTestApp(kind, { EVENT_STREAMS_PER_ADDRESS: '3' });
      base = await listen(t.app);
    });
    afterEach(async () => {
      for (const s of open.splice(0)) s.close();
      await t.close();
    });

    it('is open to visitors: text/event-stream with the API security headers, events with ids', async () => {
      const s = await stream();
      expect(s.status).toBe(200);
      expect(s.headers['content-type']).toBe('text/event-stream');
      expect(s.headers['cache-control']).toBe('no-cache');
      expect(s.headers['x-accel-buffering']).toBe('no');
      expect(s.headers['x-content-type-options']).toBe('nosniff');
      await publishLiveEvent(t.ctx, 'site', { activated: true });
      await until(() => expect(s.events).toHaveLength(1));
      expect(s.events[0]).toMatchObject({ event: 'site', data: { activated: true } });
      expect(Number(s.events[0]!.id)).toBeGreaterThan(0);
    });

    it('resumes from Last-Event-ID with every missed event, once, in order', async () => {
      const first = await stream();
      for (let i = 1; i <= 4; i++)
        await publishLiveEvent(t.ctx, 'announcement', { _id: String(i), title: `A${i}` });
      await until(() => expect(first.events).toHaveLength(4));
      const ids = first.events.map((e) => e.id);
      first.close();
      const resumed = await stream({ 'last-event-id': ids[1]! });
      await publishLiveEvent(t.ctx, 'announcement', { _id: '5', title: 'A5' });
      await until(() => expect(resumed.events).toHaveLength(3));
      expect(resumed.events.map((e) => (e.data as { title: string }).title)).toEqual(['A3', 'A4', 'A5']);
      // A new stream without Last-Event-ID gets only what follows.
      const fresh = await stream();
      await publishLiveEvent(t.ctx, 'challenges', {});
      await until(() => expect(fresh.events).toHaveLength(1));
      expect(fresh.events[0]!.event).toBe('challenges');
    });

    it('replays only the last 10 minutes', async () => {
      await publishLiveEvent(t.ctx, 'announcement', { _id: '1', title: 'old' });
      t.clock.advance(LIVE_EVENT_REPLAY_MS + 1000);
      await publishLiveEvent(t.ctx, 'announcement', { _id: '2', title: 'new' });
      const s = await stream({ 'last-event-id': '0' });
      await until(() => expect(s.events).toHaveLength(1));
      expect(s.events[0]!.data).toEqual({ _id: '2', title: 'new' });
    });

    it('answers 429 past EVENT_STREAMS_PER_ADDRESS open streams, and admits again once one closes', async () => {
      const streams = [await stream(), await stream(), await stream()];
      const refused = await stream();
      expect(refused.status).toBe(429);
      await refused.ended;
      expect(JSON.parse(refused.body())).toEqual({ message: TOO_MANY_STREAMS_MESSAGE });
      expect(refused.headers['retry-after']).toBe('30');
      streams[0]!.close();
      await until(async () => {
        const again = await stream();
        again.close();
        expect(again.status).toBe(200);
      });
    });

    it('refuses a client that does not accept event streams', async () => {
      const res = await t.visitor().get('/api/events', { accept: 'application/json' });
      expect(res.status).toBe(406);
    });

    it('sends a coalesced leaderboard and challenges event after a correct flag', async () => {
      await openSite(t);
      const c = await addChallenge(t);
      const s = await stream();
      const alice = await t.login('alice');
      const res = await alice.post('/api/ctf/submit-flag', { challenge_id: String(c.id), flag: c.flag });
      expect(res.status).toBe(200);
      await until(() =>
        expect(s.events.map((e) => e.event)).toEqual(expect.arrayContaining(['leaderboard', 'challenges'])),
      );
    });

    it('ends every stream when the server closes', async () => {
      const s = await stream();
      await t.app.close();
      await s.ended;
    });
  });

  describe(`live events across processes on ${kind}`, () => {
    let t: TestApp;
    let other: { app: TestApp['app']; ctx: AppContext };
    beforeEach(async () => {
      t = await buildTestApp(kind);
      other = await buildApp(t.config, { clock: t.clock, logger: false });
      await other.app.ready();
    });
    afterEach(async () => {
      await other.app.close();
      await t.close();
    });

    it('every process sends every event with the same id, and a stream resumes on the other one', async () => {
      const baseA = await listen(t.app);
      const baseB = await listen(other.app);
      const a = await openEventStream(baseA);
      const b = await openEventStream(baseB);
      await publishLiveEvent(t.ctx, 'announcement', { _id: '1', title: 'from A' });
      await publishLiveEvent(other.ctx, 'announcement', { _id: '2', title: 'from B' });
      await until(() => expect(a.events).toHaveLength(2));
      await until(() => expect(b.events).toHaveLength(2));
      expect(b.events).toEqual(a.events);
      // A browser that saw the first event on A reconnects to B and misses nothing, twice nothing.
      a.close();
      const resumed = await openEventStream(baseB, { 'last-event-id': a.events[0]!.id! });
      await publishLiveEvent(t.ctx, 'announcement', { _id: '3', title: 'from A again' });
      await until(() => expect(resumed.events).toHaveLength(2));
      expect(resumed.events.map((e) => (e.data as { title: string }).title)).toEqual([
        'from B',
        'from A again',
      ]);
      b.close();
      resumed.close();
    });
  });
}
