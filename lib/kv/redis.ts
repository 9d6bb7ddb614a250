// Redis driver (REDIS_URL) through ioredis. Fails fast while Redis is down (the caller answers
// 503) and reconnects by itself when it returns.
import { Redis } from 'ioredis';
import { createScriptedKv } from './scripted';
import type { Kv } from './types';

const COMMAND_TIMEOUT_MS = 2_000;

export function createRedisKv(url: string, onError: (error: Error) => void): Kv {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  redis.on('error', onError);
  // EVALSHA first, EVAL on NOSCRIPT: the script text crosses the wire once per server.
  const shas = new Map<string, string>();
  return createScriptedKv({
    async evalScript(script, keys, args) {
      let sha = shas.get(script);
      if (sha) {
        try {
          return await redis.evalsha(sha, keys.length, ...keys, ...args);
        } catch (error) {
          if (!String((error as Error).message).includes('NOSCRIPT')) throw error;
        }
      }
      sha = (await redis.script('LOAD', script)) as string;
      shas.set(script, sha);
      return redis.evalsha(sha, keys.length, ...keys, ...args);
    },
    async set(key, value, ttlMs) {
      await redis.set(key, value, 'PX', ttlMs);
    },
    get: (key) => redis.get(key),
    async ping() {
      await redis.ping();
    },
    async close() {
      redis.disconnect();
    },
  });
}
