// Where a webhook may be sent (docs/api.md#webhooks): https only, and never to loopback, private, link-local
// or otherwise internal addresses in production — checked when the endpoint is added and again at
// every delivery against the addresses DNS gives then, and the delivery connects to exactly the
// address that was checked (so DNS rebinding between check and connect gets nowhere).
// The same rule guards client metadata document fetches (docs/api.md#client-id-metadata-documents).
// WEBHOOK_ALLOW_PRIVATE=1 lifts the address rule and allows http, for tests and development.
import 'server-only';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ApiError } from '../errors';

const internal = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  internal.addSubnet(network, prefix, 'ipv4');
// 64:ff9b:1::/48 is local-use NAT64 (RFC 8215) and fec0::/10 the deprecated site-local range: both
// reach internal IPv4 or site addresses (docs/api.md#webhooks).
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2001:db8::', 32],
] as const) {
  internal.addSubnet(network, prefix, 'ipv6');
}

export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return internal.check(mapped, 'ipv4');
  const version = isIP(address);
  return version === 0 || internal.check(address, version === 4 ? 'ipv4' : 'ipv6');
}

/** The URL as a webhook target, refused (400) when it may never be one. */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): URL {
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) throw refuse('url: must be https');
  if (url.username || url.password) throw refuse('url: must not carry credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (
    !allowPrivate &&
    (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) && isInternalAddress(host)))
  ) {
    throw refuse('url: must not point at a loopback, private or link-local address');
  }
  return url;
}

/**
 * At registration: a name that already resolves to an internal address is refused now (400);
 * one that does not resolve yet is accepted — every delivery resolves and checks it again.
 */
export async function checkWebhookTarget(raw: string, allowPrivate: boolean): Promise<URL> {
  const url = checkWebhookUrl(raw, allowPrivate);
  if (allowPrivate || isIP(url.hostname.replace(/^\[|\]$/g, ''))) return url;
  const addresses = await resolveAll(url.hostname).catch(() => []);
  if (addresses.some((entry) => isInternalAddress(entry.address)))
    throw refuse('url: resolves to a loopback, private or link-local address');
  return url;
}

/** The address to connect to for `url`, resolved now; throws when every address is internal. */
export async function resolveTarget(url: URL, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolveAll(host);
  const usable = allowPrivate ? addresses : addresses.filter((entry) => !isInternalAddress(entry.address));
  // Any internal answer is a sign of rebinding or a misconfiguration: refuse the lot.
  if (usable.length === 0 || usable.length !== addresses.length)
    throw new Error('the URL resolves to an internal address');
  return usable[0]!;
}

// A slow resolver (a name an attacker controls) must not hold a request or a delivery run.
const LOOKUP_TIMEOUT_MS = 2_000;

function resolveAll(host: string) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('DNS lookup timed out')), LOOKUP_TIMEOUT_MS);
  });
  return Promise.race([lookup(host, { all: true, verbatim: true }), timeout]).finally(() => clearTimeout(timer));
}

const refuse = (detail: string) => new ApiError(400, 'Validation failed', [detail]);
