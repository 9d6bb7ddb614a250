// Vercel KV driver (KV_REST_API_URL + KV_REST_API_TOKEN), over its REST API.
import { createClient } from '@vercel/kv';
import { createScriptedKv } from './scripted';
import type { Kv } from './types';

export function createVercelKv(url: string, token: string): Kv {
  const kv = createClient({ url, token, automaticDeserialization: false });
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
