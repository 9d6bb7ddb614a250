// Vercel KV driver (KV_REST_API_URL + KV_REST_API_TOKEN), over its REST API. Fails fast while it
// is unreachable (the caller answers 503) and needs no reconnecting: every command is a request.
import { createClient } from '@vercel/kv';
import { createScriptedKv } from './scripted';
import type { Kv } from './types';

export function createVercelKv(url: string, token: string): Kv {
  // Fail fast as the Redis driver does: the caller answers 503 and the client retries later,
  // rather than a request hanging through the REST client's default five retries (~13 s).
  const kv = createClient({ url, token, automaticDeserialization: false, retry: { retries: 1, backoff: () => 100 } });
  return createScriptedKv({
    evalScript: (script, keys, args) => kv.eval(script, keys, args),
    async set(key, value, ttlMs) {
      await kv.set(key, value, { px: ttlMs });
    },
    get: (key) => kv.get<string>(key),
    async ping() {
      await kv.ping();
    },
    async close() {},
  });
}
