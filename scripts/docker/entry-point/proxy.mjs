// The entry point of one challenge instance: the only container on the instance's internal
// network that also has a network with a way out. It publishes the instance's ports (the host's
// published port -> this proxy -> the challenge), guards HTTP ports with the instance's token, and
// (egress) is the instance's one way to the internet: an HTTP proxy to public addresses only.
// Configuration: ROUTES (JSON: [{listen, target, port, protocol, token?}]), EGRESS=1,
// DENY_HOSTS (names whose addresses are refused too: the challenge host's own public address).
// Plain node, no dependencies: the image is `FROM node` + this file (build-entry-point.sh).
import dns from 'node:dns/promises';
import net from 'node:net';

const HEAD_MAX = 16 * 1024;
const HEAD_TIMEOUT_MS = 10_000;
const MAX_CONNECTIONS = 512;
const EGRESS_PORT = 3128;

const routes = JSON.parse(process.env.ROUTES ?? '[]');
const log = (m) => process.stdout.write(`${new Date().toISOString()} ${m}\n`);

function pipeBoth(a, b, first) {
  a.on('error', () => b.destroy());
  b.on('error', () => a.destroy());
  a.on('close', () => b.destroy());
  b.on('close', () => a.destroy());
  if (first && first.length > 0) b.write(first);
  a.pipe(b);
  b.pipe(a);
}

/** Reads a request head (bounded in size and time); resolves with it and what followed. */
function readHead(socket) {
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0);
    const done = (v) => {
      clearTimeout(timer);
      socket.removeListener('data', onData);
      resolve(v);
    };
    const timer = setTimeout(() => done(null), HEAD_TIMEOUT_MS);
    const onData = (d) => {
      buf = Buffer.concat([buf, d]);
      const end = buf.indexOf('\r\n\r\n');
      if (end >= 0) {
        socket.pause();
        done({ head: buf.subarray(0, end + 4).toString('latin1'), raw: buf });
      } else if (buf.length > HEAD_MAX) done(null);
    };
    socket.on('data', onData);
    socket.on('error', () => done(null));
    socket.on('close', () => done(null));
  });
}

const reply = (socket, status, text, headers = {}) => {
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.resume();
  socket.end(
    `HTTP/1.1 ${status}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\nx-ctf-entry: 1\r\n${extra}\r\n${text}`,
  );
};

function cookieOf(head, name) {
  for (const line of head.split('\r\n')) {
    if (!/^cookie:/i.test(line)) continue;
    for (const part of line.slice(7).split(';')) {
      const [k, ...v] = part.trim().split('=');
      if (k === name) return v.join('=');
    }
  }
  return null;
}

function connectTarget(route, client, first) {
  const [host, port] = [route.target, route.port];
  const upstream = net.connect({ host, port });
  upstream.once('connect', () => pipeBoth(client, upstream, first));
  upstream.once('error', () => {
    if (route.protocol === 'http' && first)
      reply(client, '502 Bad Gateway', 'The instance does not answer yet.\n', {
        'x-ctf-entry': 'backend-down',
      });
    else client.destroy();
  });
}

/** HTTP: the request must carry the instance's token (the cookie the team's link sets). */
async function httpEntry(route, client) {
  const got = await readHead(client);
  if (!got) return client.destroy();
  const cookieName = `ctf_instance_${route.listen}`;
  const [, target = ''] = /^[A-Z]+ (\S+) HTTP\/1\.[01]\r\n/.exec(got.head) ?? [];
  const m = /^\/_instance\/([A-Za-z0-9_-]{16,64})(?:[/?#]|$)/.exec(target);
  if (m && m[1] === route.token) {
    return reply(client, '302 Found', 'Found\n', {
      location: '/',
      'set-cookie': `${cookieName}=${route.token}; Path=/; HttpOnly; SameSite=Lax`,
      'cache-control': 'no-store',
    });
  }
  if (cookieOf(got.head, cookieName) !== route.token) return reply(client, '404 Not Found', 'Not found\n');
  connectTarget(route, client, got.raw);
}

let open = 0;
for (const route of routes) {
  net
    .createServer((client) => {
      if (open >= MAX_CONNECTIONS) return client.destroy();
      open += 1;
      client.on('close', () => (open -= 1));
      client.on('error', () => client.destroy());
      if (route.protocol === 'http') void httpEntry(route, client);
      else connectTarget(route, client, null);
    })
    .listen(route.listen, '0.0.0.0', () =>
      log(`port ${route.listen} -> ${route.target}:${route.port} (${route.protocol})`),
    );
}

// ---- egress: an HTTP proxy (CONNECT, and absolute-form requests) to public addresses only ----

const v4 = (a) => a.split('.').reduce((n, x) => n * 256 + Number(x), 0);
const BLOCKED_V4 = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
].map(([base, bits]) => [v4(base), bits]);

/** Whether an address is on the public internet (not this host, a private range or metadata). */
export function isPublic(address) {
  if (net.isIPv4(address)) {
    const n = v4(address);
    return !BLOCKED_V4.some(
      ([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)),
    );
  }
  if (!net.isIPv6(address)) return false;
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return isPublic(mapped[1]);
  // Global unicast only (2000::/3), not documentation (2001:db8::/32) nor 6to4/Teredo relays.
  const first = parseInt(lower.split(':')[0] || '0', 16);
  if (first < 0x2000 || first > 0x3fff) return false;
  return !lower.startsWith('2001:db8:') && !lower.startsWith('2002:') && !/^2001:0?:/.test(lower);
}

const denied = new Set();
for (const name of (process.env.DENY_HOSTS ?? '').split(',').filter(Boolean)) {
  try {
    for (const a of await dns.lookup(name, { all: true })) denied.add(a.address);
  } catch {
    // A name this side cannot resolve: nothing to add.
  }
}

async function egressEntry(client) {
  const got = await readHead(client);
  if (!got) return client.destroy();
  const line = got.head.slice(0, got.head.indexOf('\r\n'));
  const connect = /^CONNECT ([^\s:]+|\[[0-9a-fA-F:.]+\]):(\d{1,5}) HTTP\/1\.[01]$/.exec(line);
  const absolute = /^[A-Z]+ http:\/\/([^\s/:]+|\[[0-9a-fA-F:.]+\])(?::(\d{1,5}))?[/\s]/.exec(line);
  const found = connect ?? absolute;
  if (!found) return reply(client, '400 Bad Request', 'CONNECT host:port or an absolute http:// URL\n');
  const host = found[1].replace(/^\[|\]$/g, '');
  const port = Number(found[2] ?? 80);
  let address;
  try {
    address = net.isIP(host) ? host : (await dns.lookup(host)).address;
  } catch {
    return reply(client, '502 Bad Gateway', `cannot resolve ${host}\n`);
  }
  if (!isPublic(address) || denied.has(address)) {
    log(`egress refused: ${host} (${address}):${port}`);
    return reply(client, '403 Forbidden', `${host} (${address}) is not a public address: refused\n`);
  }
  const upstream = net.connect({ host: address, port });
  upstream.once('error', () => reply(client, '502 Bad Gateway', `cannot reach ${host}:${port}\n`));
  upstream.once('connect', () => {
    if (connect) {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      pipeBoth(client, upstream, got.raw.subarray(got.head.length));
    } else pipeBoth(client, upstream, got.raw);
  });
}

if (process.env.EGRESS === '1') {
  net
    .createServer((client) => {
      if (open >= MAX_CONNECTIONS) return client.destroy();
      open += 1;
      client.on('close', () => (open -= 1));
      client.on('error', () => client.destroy());
      void egressEntry(client);
    })
    .listen(EGRESS_PORT, '0.0.0.0', () => log(`egress proxy on ${EGRESS_PORT}`));
}

process.on('SIGTERM', () => process.exit(0));
