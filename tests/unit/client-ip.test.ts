import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SOCKET_ADDRESS_HEADER, clientIp } from '@/lib/http/client-ip';
import { stampSocketAddress } from '@/lib/http/socket-address';

const headers = (values: Record<string, string>) => new Headers(values);

describe('clientIp', () => {
  test('default: the recorded socket address, ignoring X-Forwarded-For', () => {
    expect(clientIp(headers({ [SOCKET_ADDRESS_HEADER]: '203.0.113.9', 'x-forwarded-for': '1.2.3.4' }), 0, false)).toBe('203.0.113.9');
  });
  test('behavior: one trusted proxy takes the entry it appended', () => {
    const h = headers({ [SOCKET_ADDRESS_HEADER]: '10.0.0.2', 'x-forwarded-for': '6.6.6.6, 203.0.113.9' });
    expect(clientIp(h, 1, false)).toBe('203.0.113.9');
  });
  test('behavior: two trusted hops skip both proxies', () => {
    const h = headers({ [SOCKET_ADDRESS_HEADER]: '10.0.0.2', 'x-forwarded-for': 'spoof, 203.0.113.9, 10.0.0.1' });
    expect(clientIp(h, 2, false)).toBe('203.0.113.9');
  });
  test('behavior: more hops than entries falls back to the leftmost', () => {
    expect(clientIp(headers({ [SOCKET_ADDRESS_HEADER]: '10.0.0.2' }), 3, false)).toBe('10.0.0.2');
  });
  test('behavior: on Vercel, the platform-set x-real-ip stands for the socket', () => {
    expect(clientIp(headers({ 'x-real-ip': '203.0.113.7', 'x-forwarded-for': '1.1.1.1' }), 0, true)).toBe('203.0.113.7');
    expect(clientIp(headers({ 'x-real-ip': '203.0.113.7' }), 0, false)).toBe('unknown');
  });
});

describe('stampSocketAddress behind a real HTTP server', () => {
  let url = '';
  const server = createServer((request, response) => {
    stampSocketAddress(request);
    const seen = new Headers(request.headers as Record<string, string>);
    response.end(JSON.stringify({ ip: clientIp(seen, 0, false), header: request.headers[SOCKET_ADDRESS_HEADER] }));
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('error: spoofed X-Forwarded-For and a forged copy of our header do not change the client IP', async () => {
    const response = await fetch(url, {
      headers: { 'x-forwarded-for': '6.6.6.6', [SOCKET_ADDRESS_HEADER]: '6.6.6.6', 'X-Real-IP': '6.6.6.6' },
    });
    expect(await response.json()).toEqual({ ip: '127.0.0.1', header: '127.0.0.1' });
  });
});
