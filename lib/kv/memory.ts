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

  return {
    async putCapped(key, value, ttlMs, setKey, cap) {
      const members = liveSet(setKey);
      if (members.size >= cap) return false;
      const expiresAt = now() + ttlMs;
      entries.set(key, { value, expiresAt });
      members.set(key, expiresAt);
      return true;
    },
    async take(key, setKey) {
      const entry = read(key);
      entries.delete(key);
      sets.get(setKey)?.delete(key);
      return entry?.value ?? null;
    },
    async hit(key, windowMs) {
      const entry = read(key);
      const count = entry ? Number(entry.value) + 1 : 1;
      const expiresAt = entry?.expiresAt ?? now() + windowMs;
      entries.set(key, { value: String(count), expiresAt });
      return { count, resetMs: expiresAt - now() };
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
