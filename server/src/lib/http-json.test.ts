import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpJsonError, requestJson } from './http-json.js';

/** A local site whose answers each test picks by path. */
let server: http.Server;
let origin = '';
let connections = 0;
const received: { method: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ method: req.method ?? '', headers: req.headers, body });
      switch (req.url) {
        case '/json':
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":7,"login":"ada"}');
          break;
        case '/missing':
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
          break;
        case '/echo':
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ body }));
          break;
        case '/declared-large':
          res.writeHead(200, { 'content-length': String(1024 * 1024) }).write('{"a":"');
          break;
        case '/streamed-large':
          // No length: chunks until the client gives up.
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write(`{"a":"${'x'.repeat(64 * 1024)}`);
          res.write('x'.repeat(64 * 1024));
          break;
        case '/moved':
          res.writeHead(302, { location: '/json', 'content-type': 'application/json' }).end('{}');
          break;
        case '/html':
          res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>');
          break;
        case '/silent':
          break; // never answers
        default:
          res.writeHead(500).end();
      }
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('requestJson', () => {
  it('reads a JSON answer and hands back its status, whatever it is', async () => {
    expect(await requestJson({ url: `${origin}/json` })).toEqual({
      status: 200,
      data: { id: 7, login: 'ada' },
    });
    expect(await requestJson({ url: `${origin}/missing` })).toEqual({
      status: 404,
      data: { message: 'Not Found' },
    });
  });

  it('hands a redirect back as it is, without following it (nor its credentials on)', async () => {
    const before = received.length;
    expect(await requestJson({ url: `${origin}/moved`, headers: { authorization: 'Bearer t' } })).toEqual({
      status: 302,
      data: {},
    });
    expect(received.length).toBe(before + 1);
  });

  it('sends a body with its length and the headers given', async () => {
    const answer = await requestJson({
      url: `${origin}/echo`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic abc' },
      body: 'grant_type=authorization_code&code=é',
    });
    expect(answer.data).toEqual({ body: 'grant_type=authorization_code&code=é' });
    const last = received.at(-1)!;
    expect(last.method).toBe('POST');
    expect(last.headers['content-length']).toBe(
      String(Buffer.byteLength('grant_type=authorization_code&code=é')),
    );
    expect(last.headers.authorization).toBe('Basic abc');
  });

  it('refuses an answer over its size budget, declared or streamed', async () => {
    await expect(requestJson({ url: `${origin}/declared-large`, maxBytes: 1024 })).rejects.toThrow(
      new HttpJsonError('answer too large'),
    );
    await expect(requestJson({ url: `${origin}/streamed-large`, maxBytes: 64 * 1024 })).rejects.toThrow(
      'answer too large',
    );
  });

  it('gives up on a site that does not answer within its time budget', async () => {
    await expect(requestJson({ url: `${origin}/silent`, timeoutMs: 200 })).rejects.toThrow('timed out');
  });

  it('refuses an answer that is not JSON, and a URL that is not http(s)', async () => {
    await expect(requestJson({ url: `${origin}/html` })).rejects.toThrow('answer 200 is not JSON');
    await expect(requestJson({ url: 'file:///etc/passwd' })).rejects.toThrow('not an http(s) URL');
  });

  it('keeps its connection alive between calls', async () => {
    await requestJson({ url: `${origin}/json` });
    const before = connections;
    await requestJson({ url: `${origin}/json` });
    await requestJson({ url: `${origin}/json` });
    expect(connections).toBe(before);
  });
});
