// docs/api.md#client-ip through the real nonce route: per-IP limits count by the address this process
// vouches for, IPv6 by its /64, and a client naming itself in our header gains nothing.
import { describe, expect, test } from 'vitest';
import { POST as nonce } from '@/app/api/auth/nonce/route';
import { SOCKET_ADDRESS_HEADER } from '@/lib/http/client-ip';
import { call } from '../support/http';
import { BOOKKEEPING, setEnv, useTestEnvironment } from '../support/environment';
import { newWallet } from '../support/wallets';

useTestEnvironment({ ...BOOKKEEPING, NONCE_RATE_LIMIT_PER_MINUTE: '3' });

const askFrom = (ip: string) => call(nonce, { body: { address: newWallet().address }, ip });
const statuses = async (ips: string[]) => {
  const out: number[] = [];
  for (const ip of ips) out.push((await askFrom(ip)).status);
  return out;
};
const prefix = () =>
  `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;

describe('per-IP buckets', () => {
  test('behavior: IPv6 addresses of one /64 share a bucket', async () => {
    const net = prefix();
    expect(await statuses([`${net}::1`, `${net}:dead:beef:0:1`, `${net}:ffff:ffff:ffff:ffff`, `${net}::2`])).toEqual([
      200, 200, 200, 429,
    ]);
  });

  test('behavior: the next /64 has a bucket of its own', async () => {
    const [a, b] = [prefix(), prefix()];
    expect(await statuses([`${a}::1`, `${a}::2`, `${a}::3`, `${b}::1`])).toEqual([200, 200, 200, 200]);
  });

  test('error: forged copies of our socket header all land in the one unknown bucket', async () => {
    setEnv({ NONCE_RATE_LIMIT_PER_MINUTE: '1000' }); // the unknown bucket is shared with the other files' forgeries
    try {
      const forged = (i: number) =>
        call(nonce, { body: { address: newWallet().address }, headers: { [SOCKET_ADDRESS_HEADER]: `10.66.0.${i}` } });
      const first = await forged(1);
      const second = await forged(2);
      expect(Number(second.headers.get('ratelimit-remaining'))).toBe(
        Number(first.headers.get('ratelimit-remaining')) - 1,
      );
    } finally {
      setEnv({ NONCE_RATE_LIMIT_PER_MINUTE: '3' });
    }
  });
});
