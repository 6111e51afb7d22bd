// The browsers of the stream leg (issue 15): a process of its own holding many open live event
// streams (GET /api/events) to a loopback server, so that reading the events they carry never
// slows the runner's load generator. Driven by its parent over IPC; every step is bounded in count
// and time, and it exits when its parent goes away or after MAX_LIFE_MS whatever happens.
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';

const MAX_LIFE_MS = 20 * 60 * 1000;
const OPEN_BATCH = 100;
const MAX_STREAMS = 10_000;

/** @type {Set<{ req: import('node:http').ClientRequest, res: import('node:http').IncomingMessage | null, tail: string, seen: boolean }>} */
const streams = new Set();
let bytes = 0;
let closedByServer = 0;
/** The announcement being waited for: its title, and when each stream saw it. */
let waiting = null;

const life = setTimeout(() => process.exit(2), MAX_LIFE_MS);
life.unref();
process.on('disconnect', () => process.exit(0));

function loopback(url) {
  const u = new URL(url);
  if (u.protocol !== 'http:' || !['127.0.0.1', 'localhost'].includes(u.hostname))
    throw new Error(`streams only to loopback: ${url}`);
  return u;
}

/** Opens one stream; resolves with its status once the server answered (200: it is open). */
function openOne(u) {
  return new Promise((resolve) => {
    const stream = { req: null, res: null, tail: '', seen: false };
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: '/api/events',
        agent: false,
        headers: { accept: 'text/event-stream' },
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          req.destroy();
          resolve(res.statusCode ?? 0);
          return;
        }
        stream.res = res;
        streams.add(stream);
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          bytes += chunk.length;
          if (!waiting || stream.seen) return;
          const text = stream.tail + chunk;
          if (text.includes(waiting.title)) {
            stream.seen = true;
            waiting.last = performance.now();
            waiting.count += 1;
            if (waiting.count >= waiting.expected) waiting.done();
          } else stream.tail = text.slice(-waiting.title.length);
        });
        res.on('close', () => {
          if (streams.delete(stream)) closedByServer += 1;
        });
        resolve(200);
      },
    );
    stream.req = req;
    req.on('error', () => resolve(-1));
    req.setTimeout(30_000, () => req.destroy());
    req.end();
  });
}

async function open({ url, count, deadlineMs }) {
  const u = loopback(url);
  const n = Math.min(count, MAX_STREAMS);
  const until = Date.now() + deadlineMs;
  const t0 = performance.now();
  const statuses = {};
  let opened = 0;
  while (opened < n && Date.now() < until) {
    const batch = Math.min(OPEN_BATCH, n - opened);
    const answers = await Promise.all(Array.from({ length: batch }, () => openOne(u)));
    for (const s of answers) statuses[s] = (statuses[s] ?? 0) + 1;
    opened += batch;
  }
  // An open stream keeps no request timer: it may be quiet for the 30 s of a heartbeat.
  for (const s of streams) s.req.setTimeout(0);
  return { type: 'opened', open: streams.size, statuses, ms: performance.now() - t0 };
}

/** Posts an announcement as the admin and waits until every open stream has received it. */
async function announce({ url, origin, cookie, title, deadlineMs }) {
  const u = loopback(url);
  for (const s of streams) {
    s.seen = false;
    s.tail = '';
  }
  const expected = streams.size;
  let finish;
  const all = new Promise((resolve) => (finish = resolve));
  waiting = { title, expected, count: 0, last: NaN, done: () => finish(true) };
  const t0 = performance.now();
  const res = await fetch(new URL('/api/admin/announcements/create', u), {
    method: 'POST',
    headers: { cookie, origin, 'content-type': 'application/json' },
    body: JSON.stringify({ title, body: `Benchmark announcement **${title}**.` }),
  });
  const postMs = performance.now() - t0;
  await res.arrayBuffer();
  if (expected === 0) finish(true);
  let timer;
  const reached = await Promise.race([
    all,
    new Promise((resolve) => (timer = setTimeout(() => resolve(false), deadlineMs))),
  ]);
  clearTimeout(timer);
  const w = waiting;
  waiting = null;
  return {
    type: 'announced',
    status: res.status,
    postMs,
    expected,
    received: w.count,
    ms: !reached ? NaN : expected === 0 ? postMs : w.last - t0,
  };
}

function close() {
  for (const s of streams) s.req.destroy();
  streams.clear();
  return { type: 'closed' };
}

process.on('message', async (msg) => {
  try {
    let answer;
    if (msg.type === 'open') answer = await open(msg);
    else if (msg.type === 'announce') answer = await announce(msg);
    else if (msg.type === 'stats') answer = { type: 'stats', open: streams.size, bytes, closedByServer };
    else if (msg.type === 'close') answer = close();
    else throw new Error(`unknown message ${msg.type}`);
    process.send(answer);
    if (msg.type === 'close') process.disconnect();
  } catch (err) {
    process.send({ type: 'error', message: String(err?.stack ?? err) });
  }
});
process.send({ type: 'ready' });
