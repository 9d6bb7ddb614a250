import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SOCKET_ADDRESS_HEADER, bucketOf, clientIp } from '@/lib/http/client-ip';
import { stampSocketAddress, stampedAddress } from '@/lib/http/socket-address';

const headers = (values: Record<string, string>) => new Headers(values);
const socket = (ip: string) => ({ [SOCKET_ADDRESS_HEADER]: stampedAddress(ip) });

describe('clientIp', () => {
  test('default: the socket address server.ts stamped, ignoring X-Forwarded-For', () => {
    expect(clientIp(headers({ ...socket('203.0.113.9'), 'x-forwarded-for': '1.2.3.4' }), 0, false)).toBe('203.0.113.9');
  });
  test("error: our header without this process's stamp names nobody", () => {
    expect(clientIp(headers({ [SOCKET_ADDRESS_HEADER]: '203.0.113.9' }), 0, false)).toBe('unknown');
    expect(clientIp(headers({ [SOCKET_ADDRESS_HEADER]: `${'0'.repeat(32)} 203.0.113.9` }), 0, false)).toBe('unknown');
  });
  test('behavior: one trusted proxy takes the entry it appended', () => {
    const h = headers({ ...socket('10.0.0.2'), 'x-forwarded-for': '6.6.6.6, 203.0.113.9' });
    expect(clientIp(h, 1, false)).toBe('203.0.113.9');
  });
  test('behavior: two trusted hops skip both proxies', () => {
    const h = headers({ ...socket('10.0.0.2'), 'x-forwarded-for': 'spoof, 203.0.113.9, 10.0.0.1' });
    expect(clientIp(h, 2, false)).toBe('203.0.113.9');
  });
  test('behavior: more hops than entries falls back to the leftmost', () => {
    expect(clientIp(headers(socket('10.0.0.2')), 3, false)).toBe('10.0.0.2');
  });
  test('behavior: TRUST_PROXY without server.ts reads X-Forwarded-For alone', () => {
    expect(clientIp(headers({ 'x-forwarded-for': 'spoof, 203.0.113.9' }), 1, false)).toBe('203.0.113.9');
  });
  test('behavior: on Vercel only the platform-set x-real-ip counts, never our header or X-Forwarded-For', () => {
    const h = headers({ 'x-real-ip': '203.0.113.7', 'x-forwarded-for': '1.1.1.1', ...socket('6.6.6.6') });
    expect(clientIp(h, 0, true)).toBe('203.0.113.7');
    expect(clientIp(h, 2, true)).toBe('203.0.113.7');
    expect(clientIp(headers({ ...socket('6.6.6.6') }), 0, true)).toBe('unknown');
    expect(clientIp(headers({ 'x-real-ip': '203.0.113.7' }), 0, false)).toBe('unknown');
  });
  test('error: a value that is not an address is the unknown bucket', () => {
    expect(clientIp(headers({ 'x-real-ip': 'evil' }), 0, true)).toBe('unknown');
    expect(clientIp(headers({ 'x-forwarded-for': '<script>' }), 1, false)).toBe('unknown');
  });
});

describe('bucketOf', () => {
  test('behavior: IPv6 addresses of one /64 share a bucket, another /64 does not', () => {
    const a = bucketOf('2001:db8:1:2:aaaa::1');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(bucketOf('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(a);
    expect(bucketOf('[2001:db8:1:2::9]')).toBe(a);
    expect(bucketOf('2001:db8:1:3::1')).not.toBe(a);
    expect(bucketOf('::1')).toBe('0:0:0:0::/64');
  });
  test('behavior: IPv4-mapped IPv6 is the IPv4 address', () => {
    expect(bucketOf('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(bucketOf('203.0.113.5')).toBe('203.0.113.5');
  });
});

describe('stampSocketAddress behind a real HTTP server', () => {
  let url = '';
  const server = createServer((request, response) => {
    stampSocketAddress(request);
    const seen = new Headers(request.headers as Record<string, string>);
    response.end(JSON.stringify({ ip: clientIp(seen, 0, false) }));
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('error: spoofed X-Forwarded-For and a forged copy of our header do not change the client IP', async () => {
    const response = await fetch(url, {
      headers: {
        'x-forwarded-for': '6.6.6.6',
        [SOCKET_ADDRESS_HEADER]: stampedAddress('6.6.6.6'),
        'X-Real-IP': '6.6.6.6',
      },
    });
    expect(await response.json()).toEqual({ ip: '127.0.0.1' });
  });
});
