// The sanitiser first, as the server loads it: its first use brings in jsdom and jsdom's undici.
import { sanitizeHtml } from './sanitize-html.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';

it("keeps Node's fetch able to send a request with its own Content-Length after jsdom loaded (the OAuth code exchange)", async () => {
  expect(await sanitizeHtml('<b onclick="x()">ok</b>')).toBe('<b>ok</b>');
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => res.end(`got ${body} (${req.headers['content-length']})`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/token`, {
      method: 'POST',
      body: 'code=abc',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': '8' },
    });
    expect(await res.text()).toBe('got code=abc (8)');
  } finally {
    server.close();
  }
});
