// The KV of the current configuration: Vercel KV, Redis, or in-process memory — with the key
// prefix applied and every failure turned into a 503-bound DependencyDown (never a silent
// fallback to memory, which would split nonces and limits between instances).
import 'server-only';
import { config } from '../config';
import { DependencyDown } from '../errors';
import { log } from '../log';
import { countDependencyError } from '../observability/metrics';
import { inSpan } from '../observability/tracing';
import { createMemoryKv } from './memory';
import { createRedisKv } from './redis';
import type { Kv } from './types';
import { createVercelKv } from './vercel';

export type { Charge, CountedCharge, Hit, Kv } from './types';

function guarded(kv: Kv, prefix: string): Kv {
  // Spans name the operation only: keys hold addresses and nonces (docs/api.md#observability).
  const call = <T>(operation: string, run: () => Promise<T>): Promise<T> =>
    inSpan(
      `kv ${operation}`,
      { leaf: true, attributes: { 'db.system.name': 'kv', 'db.operation.name': operation } },
      async () => {
        try {
          return await run();
        } catch (error) {
          countDependencyError('kv');
          throw new DependencyDown('kv', error);
        }
      },
    );
  const k = (key: string) => prefix + key;
  return {
    putCapped: (key, value, ttlMs, setKey, cap) =>
      call('putCapped', () => kv.putCapped(k(key), value, ttlMs, k(setKey), cap)),
    putEvictingOldest: (key, value, ttlMs, setKey, cap) =>
      call('putEvictingOldest', () => kv.putEvictingOldest(k(key), value, ttlMs, k(setKey), cap)),
    take: (key, setKey) => call('take', () => kv.take(k(key), k(setKey))),
    hit: (key, windowMs) => call('hit', () => kv.hit(k(key), windowMs)),
    unhit: (key) => call('unhit', () => kv.unhit(k(key))),
    hitThenPutCapped: (charge, key, value, ttlMs, setKey, cap) =>
      call('hitThenPutCapped', () =>
        kv.hitThenPutCapped({ ...charge, key: k(charge.key) }, k(key), value, ttlMs, k(setKey), cap),
      ),
    hitThenTake: (charge, key, setKey) =>
      call('hitThenTake', () => kv.hitThenTake({ ...charge, key: k(charge.key) }, k(key), k(setKey))),
    acquire: (key, owner, ttlMs) => call('acquire', () => kv.acquire(k(key), owner, ttlMs)),
    release: (key, owner) => call('release', () => kv.release(k(key), owner)),
    put: (key, value, ttlMs) => call('put', () => kv.put(k(key), value, ttlMs)),
    get: (key) => call('get', () => kv.get(k(key))),
    ping: () => call('ping', () => kv.ping()),
    close: () => kv.close(),
  };
}

function open(cfg: ReturnType<typeof config>): Kv {
  if (cfg.vercelKv) return createVercelKv(cfg.vercelKv.url, cfg.vercelKv.token);
  if (cfg.redisUrl) {
    let lastLogged = 0;
    const onError = (error: Error) => {
      // ioredis reports every reconnect attempt; one line every 10 s is enough to see an outage.
      if (Date.now() - lastLogged < 10_000) return;
      lastLogged = Date.now();
      log.warn('kv.redis_error', { message: error.message });
    };
    return createRedisKv(cfg.redisUrl, onError);
  }
  return createMemoryKv();
}

const store = globalThis as unknown as { __taskmarketKv?: { key: string; raw: Kv; kv: Kv } };

/** The shared KV, opened on first use (and reopened when the configuration names another). */
export function getKv(): Kv {
  const cfg = config();
  const key = `${cfg.vercelKv?.url ?? cfg.redisUrl ?? 'memory'}|${cfg.kvPrefix}`;
  if (store.__taskmarketKv?.key !== key) {
    void store.__taskmarketKv?.raw.close();
    const raw = open(cfg);
    store.__taskmarketKv = { key, raw, kv: guarded(raw, cfg.kvPrefix) };
  }
  return store.__taskmarketKv.kv;
}

export async function closeKv(): Promise<void> {
  await store.__taskmarketKv?.raw.close();
  store.__taskmarketKv = undefined;
}
