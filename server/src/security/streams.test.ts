import { STREAMS_FULL_MESSAGE, TOO_MANY_STREAMS_MESSAGE } from '@ctf/contract';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { buildTestApp, type TestApp } from '../../test/build-test-app.js';
import { openEventStream, type SseClient } from '../../test/sse-client.js';
import { defaultStreamLimit, openFileLimit } from '../lib/fd-limit.js';

/**
 * Issue 29, reproduction 5: the stream limit was per exact address, so 200 loopback addresses
 * held 1,000 streams (a descriptor each) and an IPv6 /64 was unlimited. Now a process holds at
 * most EVENT_STREAMS_MAX streams (by default half its file descriptors), and the per-address limit
 * counts a /64 as one; both answer 429 with a message saying the page refreshes instead.
 */
describe('limits on open event streams', () => {
  let t: TestApp;
  const open: SseClient[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) s.close();
    await t.close();
  });

  async function start(env: Record<string, string>): Promise<string> {
    t = await buildTestApp('sqlite', { TRUST_PROXY: 'loopback', ...env });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }
  const streamFrom = async (base: string, address: string) => {
    const s = await openEventStream(base, { 'x-forwarded-for': address });
    open.push(s);
    return s;
  };

  it('holds a global limit whatever the addresses: 429 with the process’s message', async () => {
    const base = await start({ EVENT_STREAMS_MAX: '3', EVENT_STREAMS_PER_ADDRESS: '20' });
    for (let i = 1; i <= 3; i += 1) expect((await streamFrom(base, `127.0.0.${i}`)).status).toBe(200);
    const refused = await streamFrom(base, '127.0.0.4');
    expect(refused.status).toBe(429);
    await refused.ended;
    expect(JSON.parse(refused.body())).toEqual({ message: STREAMS_FULL_MESSAGE });
    expect(refused.headers['retry-after']).toBe('30');
  });

  it('counts an IPv6 /64 (and an IPv4-mapped address with its IPv4) as one address', async () => {
    const base = await start({ EVENT_STREAMS_PER_ADDRESS: '2' });
    expect((await streamFrom(base, '2001:db8:0:1::1')).status).toBe(200);
    expect((await streamFrom(base, '2001:db8:0:1:aaaa::2')).status).toBe(200);
    const refused = await streamFrom(base, '2001:db8:0:1:bbbb::3');
    expect(refused.status).toBe(429);
    await refused.ended;
    expect(JSON.parse(refused.body())).toEqual({ message: TOO_MANY_STREAMS_MESSAGE });
    expect((await streamFrom(base, '2001:db8:0:2::1')).status).toBe(200);
    expect((await streamFrom(base, '7.7.7.7')).status).toBe(200);
    expect((await streamFrom(base, '::ffff:7.7.7.7')).status).toBe(200);
    expect((await streamFrom(base, '7.7.7.7')).status).toBe(429);
  });

  it('sizes the global limit by the file descriptors when EVENT_STREAMS_MAX is unset', () => {
    expect(defaultStreamLimit(20_000)).toBe(10_000);
    expect(defaultStreamLimit(1024)).toBe(512);
    expect(defaultStreamLimit(null)).toBe(1024);
    expect(loadConfig({}).eventStreamsMax).toBe(defaultStreamLimit(openFileLimit()));
    expect(loadConfig({ EVENT_STREAMS_MAX: '0' }).eventStreamsMax).toBe(0);
    // As .env.example leaves it: empty means unset.
    expect(loadConfig({ EVENT_STREAMS_MAX: '' }).eventStreamsMax).toBe(defaultStreamLimit(openFileLimit()));
    expect(loadConfig({ EVENT_STREAMS_MAX: '500' }).eventStreamsMax).toBe(500);
    if (process.platform === 'linux') expect(openFileLimit()).toBeGreaterThan(0);
  });
});
