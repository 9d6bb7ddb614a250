// In-process KV for a single instance (the embedded default and unit tests).
import type { Kv } from './types';

interface Entry {
  value: string;
  expiresAt: number;
}

export function createMemoryKv(now: () => number = Date.now): Kv {
  const entries = new Map<string, Entry>();
  // Live sets keep insertion order; with one TTL per set that is expiry order, so pruning only
  // ever looks at the oldest members.
  const sets = new Map<string, Map<string, number>>();

  const read = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };

  const liveSet = (setKey: string) => {
    let members = sets.get(setKey);
    if (!members) sets.set(setKey, (members = new Map()));
    const t = now();
    for (const [member, expiresAt] of members) {
      if (expiresAt > t) break;
      members.delete(member);
      entries.delete(member);
    }
    return members;
  };

  // Expired entries that are never read again would otherwise stay forever.
  const sweep = setInterval(() => {
    const t = now();
    for (const [key, entry] of entries) if (entry.expiresAt <= t) entries.delete(key);
  }, 60_000);
  sweep.unref();

  // The operations the scripted drivers run as one script, synchronous here so that the
  // combined ones (hitThen…) are one step too: nothing else runs between the hit and the work.
  const putCapped = (key: string, value: string, ttlMs: number, setKey: string, cap: number) => {
    const members = liveSet(setKey);
    if (members.size >= cap) return false;
    const expiresAt = now() + ttlMs;
    entries.set(key, { value, expiresAt });
    members.set(key, expiresAt);
    return true;
  };
  const putEvictingOldest = (key: string, value: string, ttlMs: number, setKey: string, cap: number) => {
    const members = liveSet(setKey);
    for (const member of members.keys()) {
      if (members.size < cap) break;
      members.delete(member);
      entries.delete(member);
    }
    const expiresAt = now() + ttlMs;
    entries.set(key, { value, expiresAt });
    members.set(key, expiresAt);
  };
  const take = (key: string, setKey: string) => {
    const entry = read(key);
    entries.delete(key);
    sets.get(setKey)?.delete(key);
    return entry?.value ?? null;
  };
  const hit = (key: string, windowMs: number) => {
    const entry = read(key);
    const count = entry ? Number(entry.value) + 1 : 1;
    const expiresAt = entry?.expiresAt ?? now() + windowMs;
    entries.set(key, { value: String(count), expiresAt });
    return { count, resetMs: expiresAt - now() };
  };

  return {
    putCapped: async (...args) => putCapped(...args),
    putEvictingOldest: async (...args) => putEvictingOldest(...args),
    take: async (key, setKey) => take(key, setKey),
    hit: async (key, windowMs) => hit(key, windowMs),
    async unhit(key) {
      const entry = read(key);
      if (entry && Number(entry.value) > 0) entry.value = String(Number(entry.value) - 1);
    },
    async hitThenPutCapped(charge, key, value, ttlMs, setKey, cap) {
      const counted = hit(charge.key, charge.windowMs);
      return { hit: counted, stored: counted.count <= charge.max && putCapped(key, value, ttlMs, setKey, cap) };
    },
    async hitThenTake(charge, key, setKey) {
      const counted = hit(charge.key, charge.windowMs);
      return { hit: counted, value: counted.count <= charge.max ? take(key, setKey) : null };
    },
    async acquire(key, owner, ttlMs) {
      if (read(key)) return false;
      entries.set(key, { value: owner, expiresAt: now() + ttlMs });
      return true;
    },
    async release(key, owner) {
      if (read(key)?.value === owner) entries.delete(key);
    },
    async put(key, value, ttlMs) {
      entries.set(key, { value, expiresAt: now() + ttlMs });
    },
    async get(key) {
      return read(key)?.value ?? null;
    },
    async ping() {},
    async close() {
      clearInterval(sweep);
    },
  };
}
