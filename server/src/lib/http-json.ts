import http from 'node:http';
import https from 'node:https';

/**
 * The server's calls to another site that answers JSON (an OAuth provider's token endpoint and
 * profile API), on node's own HTTP client with kept-alive connections.
 *
 * Why not `fetch`: undici's fetch, its web streams and its WASM parser cost ~150 µs of CPU a call
 * against ~50 µs here, and a sign-in makes two or three such calls; in the start-of-event rush they
 * were a tenth of a new player's CPU on the server (bench/NOTES.md, "A sign-in's provider calls off
 * fetch"). The answer is someone else's text, so it is read within a time and a size budget, like
 * every untrusted input.
 */

/** The whole call, from the request to the answer's last byte. */
export const HTTP_JSON_TIMEOUT_MS = 10_000;
/** A provider's token or profile answer is a few hundred bytes; a list of addresses a few kB. */
export const HTTP_JSON_MAX_BYTES = 256 * 1024;

/** A call that got no usable answer: unreachable, too slow, too large, or not JSON. */
export class HttpJsonError extends Error {}

export interface JsonCall {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A request body, sent with its Content-Length. */
  body?: string;
  timeoutMs?: number;
  maxBytes?: number;
}

export interface JsonAnswer {
  status: number;
  /** The parsed body; null for an empty one. */
  data: unknown;
}

// Kept-alive connections: the calls of sign-ins close together reuse them (one TLS handshake for
// many). As many at once as the calls need (fetch had no limit either: 10,000 players signing in
// within a minute keep ~100 calls in flight to GitHub); idle ones are closed after a while,
// before a provider's own idle timeout would.
const AGENT_OPTIONS = { keepAlive: true, maxFreeSockets: 32, timeout: 30_000 };
const agents = { http: new http.Agent(AGENT_OPTIONS), https: new https.Agent(AGENT_OPTIONS) };

/**
 * One call; its answer whatever the status (the caller decides), parsed as JSON. A redirect is an
 * answer like any other, not followed: a credential is never sent on to another address.
 */
export function requestJson(call: JsonCall): Promise<JsonAnswer> {
  const url = new URL(call.url);
  const secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:') return Promise.reject(new HttpJsonError('not an http(s) URL'));
  const maxBytes = call.maxBytes ?? HTTP_JSON_MAX_BYTES;
  const headers: Record<string, string> = { ...call.headers };
  if (call.body !== undefined) headers['content-length'] = String(Buffer.byteLength(call.body));
  return new Promise<JsonAnswer>((resolve, reject) => {
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      reject(new HttpJsonError(message));
    };
    const request = (secure ? https : http).request(
      url,
      { method: call.method ?? 'GET', headers, agent: secure ? agents.https : agents.http },
      (response) => {
        const declared = Number(response.headers['content-length']);
        if (declared > maxBytes) return fail('answer too large');
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) fail('answer too large');
          else chunks.push(chunk);
        });
        response.on('error', () => fail('answer cut off'));
        response.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const text = Buffer.concat(chunks, size).toString('utf8');
          try {
            resolve({ status: response.statusCode ?? 0, data: text.trim() === '' ? null : JSON.parse(text) });
          } catch {
            reject(new HttpJsonError(`answer ${response.statusCode} is not JSON`));
          }
        });
      },
    );
    const timer = setTimeout(() => fail('timed out'), call.timeoutMs ?? HTTP_JSON_TIMEOUT_MS);
    request.on('error', (err) => fail(err.message));
    request.end(call.body);
  });
}
