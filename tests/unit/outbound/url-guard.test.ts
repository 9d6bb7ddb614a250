import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { checkWebhookTarget, checkWebhookUrl, isInternalAddress } from '@/lib/outbound/url-guard';

describe('webhook address rules (docs/api.md#webhooks)', () => {
  test.each([
    '127.0.0.1',
    '10.0.0.8',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fd12:3456::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not-an-address',
    // Local-use NAT64 (RFC 8215) and the deprecated site-local range.
    '64:ff9b:1::a00:1',
    '64:ff9b:1:ffff::1',
    'fec0::1',
    'feff::1',
  ])('error: %s is internal', (address) => {
    expect(isInternalAddress(address)).toBe(true);
  });

  test.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b:2::1'])(
    'default: %s is public',
    (address) => {
      expect(isInternalAddress(address)).toBe(false);
    },
  );

  test(
    'error: http, credentials, localhost names and internal literals are refused in ' +
      'production; allowed for development',
    () => {
      for (const url of [
        'http://example.com/',
        'https://u:p@example.com/',
        'https://localhost/',
        'https://api.localhost/',
        'https://[::1]/',
        'https://10.0.0.1/',
      ]) {
        expect(() => checkWebhookUrl(url, false), url).toThrow();
      }
      expect(checkWebhookUrl('https://hooks.example.com/x', false).hostname).toBe('hooks.example.com');
      expect(checkWebhookUrl('http://127.0.0.1:9999/x', true).port).toBe('9999');
    },
  );

  test(
    'behavior: a name that resolves to loopback is refused at registration; one that does ' +
      'not resolve yet is accepted',
    async () => {
      // A real name that resolves to loopback through the resolver: this machine's /etc/hosts
      // names it (besides localhost, which is refused by name before any lookup).
      const loopbackName = readFileSync('/etc/hosts', 'utf8')
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .find(([address, name]) => address?.startsWith('127.') && name && !name.includes('localhost'))?.[1];
      expect(loopbackName, 'a non-localhost loopback name in /etc/hosts').toBeDefined();
      await expect(checkWebhookTarget(`https://${loopbackName}/hook`, false)).rejects.toThrow();
      await expect(checkWebhookTarget(`https://${loopbackName}/hook`, true)).resolves.toBeInstanceOf(URL);
      await expect(checkWebhookTarget('https://not-yet-there.invalid/', false)).resolves.toBeInstanceOf(URL);
      await expect(checkWebhookTarget('https://localhost/', false)).rejects.toThrow();
    },
  );
});
