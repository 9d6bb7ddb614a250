// The KV contract, run against every driver available here: memory always, Redis with TEST_REDIS_URL,
// Vercel KV (over the Upstash REST stand-in) with TEST_KV=vercel.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { createMemoryKv } from '@/lib/kv/memory';
import { createRedisKv } from '@/lib/kv/redis';
import { createVercelKv } from '@/lib/kv/vercel';
import type { Kv } from '@/lib/kv/types';

const drivers: [string, () => Kv][] = [['memory', () => createMemoryKv()]];
if (process.env.TEST_REDIS_URL) drivers.push(['redis', () => createRedisKv(process.env.TEST_REDIS_URL!, () => {})]);
const kvRest = inject('kvRest');
if (kvRest) drivers.push(['vercel', () => createVercelKv(kvRest.url, kvRest.token)]);

describe.each(drivers)('%s KV', (_name, open) => {
  const kv = open();
  const p = `kvtest:${randomUUID()}:`;
  afterAll(() => kv.close());

  test('default: put, get and expiry', async () => {
    await kv.put(`${p}a`, 'one', 150);
    expect(await kv.get(`${p}a`)).toBe('one');
    await new Promise((r) => setTimeout(r, 250));
    expect(await kv.get(`${p}a`)).toBeNull();
  });

  // A revocation lives until its token's own exp, which a token states: fractional or far off, it
  // is stored all the same (Redis refuses a PX that is no integer or overflows its clock).
  test('behavior: put keeps a value for a fractional or an enormous life', async () => {
    await kv.put(`${p}frac`, 'f', 60_000.5);
    await kv.put(`${p}huge`, 'h', 1e300);
    expect(await kv.get(`${p}frac`)).toBe('f');
    expect(await kv.get(`${p}huge`)).toBe('h');
  });

  test('behavior: take answers the value once, even to 25 concurrent callers', async () => {
    await kv.putCapped(`${p}n`, 'addr', 60_000, `${p}live`, 10);
    const results = await Promise.all(Array.from({ length: 25 }, () => kv.take(`${p}n`, `${p}live`)));
    expect(results.filter((r) => r === 'addr')).toHaveLength(1);
    expect(results.filter((r) => r === null)).toHaveLength(24);
  });

  test('behavior: putCapped refuses past the cap and frees room on take and on expiry', async () => {
    const set = `${p}cap`;
    const stored = await Promise.all(Array.from({ length: 8 }, (_, i) => kv.putCapped(`${p}c${i}`, 'v', 300, set, 5)));
    expect(stored.filter(Boolean)).toHaveLength(5);
    expect(await kv.putCapped(`${p}cx`, 'v', 300, set, 5)).toBe(false);
    const firstStored = stored.findIndex(Boolean);
    await kv.take(`${p}c${firstStored}`, set);
    expect(await kv.putCapped(`${p}cy`, 'v', 300, set, 5)).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    expect(await kv.putCapped(`${p}cz`, 'v', 300, set, 5)).toBe(true);
  });

  test('behavior: putEvictingOldest always stores, deleting the oldest members past the cap', async () => {
    const set = `${p}evict`;
    for (let i = 0; i < 5; i += 1) await kv.putEvictingOldest(`${p}e${i}`, `v${i}`, 60_000, set, 3);
    expect(await kv.get(`${p}e0`)).toBeNull();
    expect(await kv.get(`${p}e1`)).toBeNull();
    expect(await Promise.all([2, 3, 4].map((i) => kv.get(`${p}e${i}`)))).toEqual(['v2', 'v3', 'v4']);
    // The set holds exactly the cap: nothing evicted is still counted, nothing kept is forgotten.
    expect(await kv.putCapped(`${p}ex`, 'v', 60_000, set, 3)).toBe(false);
    expect(await kv.take(`${p}e2`, set)).toBe('v2');
    expect(await kv.putCapped(`${p}ey`, 'v', 60_000, set, 3)).toBe(true);
  });

  test('behavior: hit counts within a window and starts over after it', async () => {
    const counts = await Promise.all(Array.from({ length: 10 }, () => kv.hit(`${p}h`, 300)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(counts[0]!.resetMs).toBeGreaterThan(0);
    expect(counts[0]!.resetMs).toBeLessThanOrEqual(300);
    await new Promise((r) => setTimeout(r, 400));
    expect((await kv.hit(`${p}h`, 300)).count).toBe(1);
  });

  test('behavior: unhit takes one hit back, never below zero, and keeps the window', async () => {
    await kv.hit(`${p}u`, 60_000);
    await kv.hit(`${p}u`, 60_000);
    await kv.unhit(`${p}u`);
    const after = await kv.hit(`${p}u`, 60_000);
    expect(after.count).toBe(2);
    expect(after.resetMs).toBeGreaterThan(50_000);
    for (let i = 0; i < 4; i++) await kv.unhit(`${p}u`);
    expect((await kv.hit(`${p}u`, 60_000)).count).toBe(1);
    // A window that is gone stays gone.
    await kv.unhit(`${p}never`);
    expect(await kv.get(`${p}never`)).toBeNull();
  });

  test(
    'behavior: hitThenPutCapped counts the hit and stores within the limit, and past it ' + 'counts but stores nothing',
    async () => {
      const charge = { key: `${p}rl-put`, windowMs: 60_000, max: 3 };
      const set = `${p}live-put`;
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) => kv.hitThenPutCapped(charge, `${p}np${i}`, `addr${i}`, 60_000, set, 100)),
      );
      expect(results.map((r) => r.hit.count).sort()).toEqual([1, 2, 3, 4, 5]);
      for (const { hit, stored } of results) expect(stored).toBe(hit.count <= 3);
      expect(results.every((r) => r.hit.resetMs > 0 && r.hit.resetMs <= 60_000)).toBe(true);
      // Exactly the three stored ones are in the store, and the live set counts only them.
      const values = await Promise.all(results.map((_, i) => kv.get(`${p}np${i}`)));
      expect(values.filter((v) => v !== null)).toHaveLength(3);
      const room = await Promise.all(
        Array.from({ length: 3 }, (_, i) => kv.putCapped(`${p}npx${i}`, 'v', 60_000, set, 5)),
      );
      expect(room).toEqual([true, true, false]);
      // The cap still refuses within the limit.
      const capped = await kv.hitThenPutCapped({ ...charge, key: `${p}rl-put2` }, `${p}npy`, 'v', 60_000, set, 5);
      expect(capped).toMatchObject({ hit: { count: 1 }, stored: false });
    },
  );

  test('behavior: hitThenTake takes once within the limit; past it the value stays for a later take', async () => {
    const set = `${p}live-take`;
    await kv.putCapped(`${p}t1`, 'addr1', 60_000, set, 10);
    await kv.putCapped(`${p}t2`, 'addr2', 60_000, set, 10);
    const charge = { key: `${p}rl-take`, windowMs: 60_000, max: 2 };
    const first = await Promise.all(Array.from({ length: 2 }, () => kv.hitThenTake(charge, `${p}t1`, set)));
    expect(first.map((r) => r.value).sort()).toEqual(['addr1', null]);
    const limited = await kv.hitThenTake(charge, `${p}t2`, set);
    expect(limited).toMatchObject({ hit: { count: 3 }, value: null });
    expect(await kv.take(`${p}t2`, set)).toBe('addr2');
  });

  test('behavior: acquire grants a lease to one of 20 concurrent callers; release by the owner frees it', async () => {
    const owners = Array.from({ length: 20 }, () => randomUUID());
    const granted = await Promise.all(owners.map((owner) => kv.acquire(`${p}lock`, owner, 5_000)));
    expect(granted.filter(Boolean)).toHaveLength(1);
    const holder = owners[granted.indexOf(true)]!;
    await kv.release(`${p}lock`, owners.find((o) => o !== holder)!);
    expect(await kv.acquire(`${p}lock`, 'late', 5_000)).toBe(false);
    await kv.release(`${p}lock`, holder);
    expect(await kv.acquire(`${p}lock`, 'next', 5_000)).toBe(true);
  });

  test('behavior: an expired lease is free, and its old owner cannot release the new one', async () => {
    expect(await kv.acquire(`${p}lease`, 'crashed', 150)).toBe(true);
    await new Promise((r) => setTimeout(r, 250));
    expect(await kv.acquire(`${p}lease`, 'next', 5_000)).toBe(true);
    await kv.release(`${p}lease`, 'crashed');
    expect(await kv.acquire(`${p}lease`, 'third', 5_000)).toBe(false);
  });
});
