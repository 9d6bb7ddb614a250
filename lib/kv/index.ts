// The KV of the current configuration: Vercel KV, Redis, or in-process memory — with the key
// prefix applied and every failure turned into a 503-bound DependencyDown (never a silent
// fallback to memory, which would split nonces and limits between instances).
import 'server-only';
import { config } from '../config';
import { DependencyDown } from '../errors';
import { log } from '../log';
import { createMemoryKv } from './memory';
import { createRedisKv } from './redis';
import type { Kv } from './types';
import { createVercelKv } from './vercel';

export type { Charge, CountedCharge, Hit, Kv } from './types';

function guarded(kv: Kv, prefix: string): Kv {
  const call = async <T>(operation: Promise<T>): Promise<T> => {
    try {
      return await operation;
    } catch (error) {
      throw new DependencyDown('kv', error);
    }
  };
  const k = (key: string) => prefix + key;
  return {
    putCapped: (key, value, ttlMs, setKey, cap) => call(kv.putCapped(k(key), value, ttlMs, k(setKey), cap)),
    take: (key, setKey) => call(kv.take(k(key), k(setKey))),
    hit: (key, windowMs) => call(kv.hit(k(key), windowMs)),
    hitThenPutCapped: (charge, key, value, ttlMs, setKey, cap) =>
      call(kv.hitThenPutCapped({ ...charge, key: k(charge.key) }, k(key), value, ttlMs, k(setKey), cap)),
    hitThenTake: (charge, key, setKey) => call(kv.hitThenTake({ ...charge, key: k(charge.key) }, k(key), k(setKey))),
    acquire: (key, owner, ttlMs) => call(kv.acquire(k(key), owner, ttlMs)),
    release: (key, owner) => call(kv.release(k(key), owner)),
    put: (key, value, ttlMs) => call(kv.put(k(key), value, ttlMs)),
    get: (key) => call(kv.get(k(key))),
    ping: () => call(kv.ping()),
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
