import { request } from 'node:http';
import { BROWSER_HEADERS } from './load.js';

/** Rows per request, as the web's leaderboard asks for them (web/src/features/leaderboard/api). */
export const PAGE_ROWS = 50;

/** What one refresh of an open leaderboard page moves over the wire, compressed as a browser takes it. */
export interface RefreshTransfer {
  /** Competitors on the board (X-Total-Count). */
  competitors: number;
  /** Requests of one refresh: the podium's page and the two pages a scrolled list can straddle. */
  requests: number;
  /** Their compressed bodies, in bytes. */
  bodyBytes: number;
  /** Their status lines and headers, in bytes. */
  headerBytes: number;
  /** The whole board's compressed body (the answer without parameters), for comparison. */
  wholeBoardBytes: number;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  headerBytes: number;
  bodyBytes: number;
}

/** A GET whose bytes are counted as they arrive (no decompression), like a browser's network panel. */
function rawGet(base: string, path: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method: 'GET', headers }, (res) => {
      let bodyBytes = 0;
      res.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
      res.on('end', () => {
        const lines = [`HTTP/1.1 ${res.statusCode} ${res.statusMessage}`];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          headerBytes: Buffer.byteLength(lines.join('\r\n') + '\r\n\r\n'),
          bodyBytes,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** How many competitors the board holds now. */
export async function boardSize(base: string): Promise<number> {
  const res = await rawGet(base, `/api/info/leaderboard?limit=1`, {});
  return Number(res.headers['x-total-count'] ?? 0);
}

/**
 * One refresh of a leaderboard page scrolled to the middle of the board after the board changed
 * (every answer a full 200, none a 304): the first page (the podium) and the two pages the
 * 400 px list can straddle, asked by a logged-in student (the answer names their rank).
 */
export async function measureRefreshTransfer(base: string, cookie: string): Promise<RefreshTransfer> {
  const competitors = await boardSize(base);
  const middle = Math.floor(competitors / 2 / PAGE_ROWS) * PAGE_ROWS;
  const headers = { ...BROWSER_HEADERS, cookie };
  let bodyBytes = 0;
  let headerBytes = 0;
  const offsets = [0, middle, middle + PAGE_ROWS];
  for (const offset of offsets) {
    const res = await rawGet(base, `/api/info/leaderboard?limit=${PAGE_ROWS}&offset=${offset}`, headers);
    if (res.status !== 200) throw new Error(`leaderboard page at ${offset} answered ${res.status}`);
    bodyBytes += res.bodyBytes;
    headerBytes += res.headerBytes;
  }
  const whole = await rawGet(base, '/api/info/leaderboard', { ...BROWSER_HEADERS });
  return { competitors, requests: offsets.length, bodyBytes, headerBytes, wholeBoardBytes: whole.bodyBytes };
}
