import Fastify, { LogController } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { lazyChildLogger } from './lazy-child-logger.js';

function loggingApp(level: string) {
  const lines: Record<string, unknown>[] = [];
  const app = Fastify({
    logger: { level, stream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
    // As app.ts: no request lines.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLogger,
  });
  return { app, lines };
}

describe('the per-request logger made only when the request logs', () => {
  it('makes no child for a request that logs nothing, and one whose lines carry the request id', async () => {
    const { app, lines } = loggingApp('info');
    const child = vi.spyOn(app.log, 'child');
    app.get('/quiet', async () => ({ ok: true }));
    app.get('/loud', async (request) => {
      request.log.warn({ what: 'something' }, 'a line');
      request.log.info('another');
      return { ok: true };
    });
    await app.ready();
    expect((await app.inject('/quiet')).statusCode).toBe(200);
    expect(child).not.toHaveBeenCalled();
    expect((await app.inject('/loud')).statusCode).toBe(200);
    expect(child).toHaveBeenCalledTimes(1);
    const logged = lines.filter((l) => l.msg === 'a line' || l.msg === 'another');
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({ what: 'something', level: 40 });
    expect(logged[0]!.reqId).toBeTruthy();
    expect(logged[1]!.reqId).toBe(logged[0]!.reqId);
    await app.close();
  });

  it("keeps the server's level, and a route's own", async () => {
    const { app, lines } = loggingApp('warn');
    app.get('/server-level', async (request) => {
      request.log.info('hidden');
      return { level: request.log.level };
    });
    app.get('/route-level', { logLevel: 'debug' }, async (request) => {
      request.log.debug('shown');
      return { level: request.log.level };
    });
    await app.ready();
    expect((await app.inject('/server-level')).json()).toEqual({ level: 'warn' });
    expect((await app.inject('/route-level')).json()).toEqual({ level: 'debug' });
    expect(lines.map((l) => l.msg)).toEqual(['shown']);
    await app.close();
  });
});
