import { isIP } from 'node:net';

/**
 * Client addresses as the site counts them. A forwarded address is text a proxy passed on, so it
 * is used only once it parses as an IP address, and always in one spelling: an IPv4-mapped IPv6
 * address (`::ffff:7.7.7.7`) is its IPv4 address, and an IPv6 address is written the one way
 * RFC 5952 gives (lower case, the longest run of zero groups as `::`), so one client cannot count
 * as several for the signals and the limits.
 */

/** An IPv6 address's eight groups (the zone, if any, dropped); null if it is not one. */
function ipv6Groups(address: string): number[] | null {
  const bare = address.split('%')[0]!;
  if (isIP(bare) !== 6) return null;
  let text = bare.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...new Array<string>(zeros).fill('0'), ...right].map((g) => parseInt(g, 16));
}

/** RFC 5952's spelling of eight groups. */
function ipv6Text(groups: readonly number[]): string {
  let best = { at: -1, length: 1 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j += 1;
    if (j - i > best.length) best = { at: i, length: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.at < 0) return hex.join(':');
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.length).join(':')}`;
}

/** The one spelling of an IP address, or null when the text is not an IP address. */
export function normaliseAddress(address: string | undefined): string | null {
  if (address === undefined) return null;
  const text = address.trim();
  if (isIP(text) === 4) return text;
  const groups = ipv6Groups(text);
  if (!groups) return null;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  return ipv6Text(groups);
}

/**
 * The network an address belongs to: an IPv4 address itself (/32), an IPv6 address's first 64
 * bits (/64: one household or host holds a whole /64), an IPv4-mapped IPv6 address as IPv4.
 */
export function addressNetwork(address: string): string {
  const normal = normaliseAddress(address) ?? address;
  const groups = ipv6Groups(normal);
  if (!groups) return normal;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
