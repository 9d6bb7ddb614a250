// The client IP that per-IP limits count by (docs/api.md#client-ip). Only a source the deployment vouches
// for names it: under server.ts the TCP socket, stamped into a header with this process's secret;
// on Vercel the platform's x-real-ip; behind TRUST_PROXY proxies the X-Forwarded-For entry that
// many hops from the right. Anything else shares the bucket `unknown`. IPv6 counts per /64, or per /48
// for the anonymous OAuth limits (`sourceOf`).
import { isIP } from 'node:net';

/** Set by server.ts from the TCP socket as `<process stamp> <address>`; a copy without the stamp is ignored. */
export const SOCKET_ADDRESS_HEADER = 'x-taskmarket-socket-address';

// On globalThis, not in a module variable: server.ts and Next's bundle of this file are separate
// module instances in one process. Unset in a process server.ts never started (next start, Vercel).
const STAMP = Symbol.for('taskmarket.socketStamp');
type Stamped = typeof globalThis & { [STAMP]?: string };

export function processStamp(): string | undefined {
  return (globalThis as Stamped)[STAMP];
}

export function setProcessStamp(stamp: string): void {
  (globalThis as Stamped)[STAMP] ??= stamp;
}

export const UNKNOWN_CLIENT = 'unknown';

export function clientIp(headers: Headers, trustProxy: number, onVercel: boolean): string {
  const socket = onVercel ? headers.get('x-real-ip') : stampedSocket(headers.get(SOCKET_ADDRESS_HEADER));
  if (trustProxy === 0 || onVercel) return bucketOf(socket);
  const forwarded = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  // Each trusted proxy appended the address it saw: the Nth entry from the right is the client.
  // Fewer entries than hops: the leftmost there is (or the socket when there are none).
  return bucketOf(forwarded[Math.max(0, forwarded.length - trustProxy)] ?? socket);
}

function stampedSocket(value: string | null): string | undefined {
  const stamp = processStamp();
  if (!stamp || !value?.startsWith(`${stamp} `)) return undefined;
  return value.slice(stamp.length + 1);
}

/** The rate-limit bucket of an address: IPv4 as it is, IPv6 by its /64 (one host can own all of it). */
export function bucketOf(address: string | null | undefined): string {
  const trimmed = address?.trim().replace(/^\[|\]$/g, '') ?? '';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed)?.[1];
  if (mapped && isIP(mapped) === 4) return mapped;
  const version = isIP(trimmed);
  if (version === 4) return trimmed;
  if (version === 6) return `${expandIpv6(trimmed).slice(0, 4).join(':')}::/64`;
  return UNKNOWN_CLIENT;
}

function expandIpv6(address: string): string[] {
  const withoutZone = address.split('%')[0]!;
  // An embedded IPv4 tail (::1.2.3.4) is two groups.
  const ipv4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(withoutZone);
  const hex = ipv4
    ? withoutZone.slice(0, ipv4.index) +
      [((+ipv4[1]! << 8) | +ipv4[2]!).toString(16), ((+ipv4[3]! << 8) | +ipv4[4]!).toString(16)].join(':')
    : withoutZone;
  const [head, tail] = hex.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16).toString(16));
}

/**
 * The source an anonymous OAuth limit counts by (docs/api.md#client-ip): an address or its `bucketOf` bucket, but
 * IPv6 by its /48 — a site is commonly given a whole /48, so its /64s are 65,536 buckets of one owner.
 */
export function sourceOf(address: string): string {
  const bucket = isIP(address) ? bucketOf(address) : address;
  const site = /^([0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4}):[0-9a-f]{1,4}::\/64$/.exec(bucket);
  return site ? `${site[1]}::/48` : bucket;
}
