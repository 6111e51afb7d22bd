import { describe, expect, it } from 'vitest';
import { addressNetwork, normaliseAddress } from './ip.js';

describe('client addresses', () => {
  it('are IP addresses in one spelling, or nothing', () => {
    expect(normaliseAddress('7.7.7.7')).toBe('7.7.7.7');
    expect(normaliseAddress(' 7.7.7.7 ')).toBe('7.7.7.7');
    expect(normaliseAddress('::ffff:7.7.7.7')).toBe('7.7.7.7');
    expect(normaliseAddress('::FFFF:0707:0707')).toBe('7.7.7.7');
    expect(normaliseAddress('0:0:0:0:0:ffff:7.7.7.7')).toBe('7.7.7.7');
    expect(normaliseAddress('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(normaliseAddress('2001:db8:0:1:0:0:0:1')).toBe('2001:db8:0:1::1');
    expect(normaliseAddress('::1')).toBe('::1');
    expect(normaliseAddress('fe80::1%eth0')).toBe('fe80::1');
    for (const junk of ['', 'x'.repeat(3000), '=HYPERLINK("x")', '1.2.3', '999.1.1.1', '1.2.3.4, 5.6.7.8', undefined])
      expect(normaliseAddress(junk), String(junk).slice(0, 20)).toBeNull();
  });

  it('belong to a network: IPv4 /32, IPv6 /64, mapped IPv6 as IPv4', () => {
    expect(addressNetwork('::ffff:7.7.7.7')).toBe('7.7.7.7');
    expect(addressNetwork('2001:db8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(addressNetwork('2001:db8:0:1:bbbb::2')).toBe('2001:db8:0:1::/64');
  });
});
