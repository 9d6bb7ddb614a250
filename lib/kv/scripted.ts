// The KV operations as Lua scripts, shared by every Redis-protocol driver (Redis, Vercel KV), so
// each operation is one atomic server-side step.
import type { Kv } from './types';

// Server time (TIME), not the caller's clock: instances with skewed clocks still agree on expiry.
const PUT_CAPPED = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), KEYS[1])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1`;

const TAKE = `
local v = redis.call('GET', KEYS[1])
if v then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], KEYS[1])
end
return v`;

const HIT = `
local c = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {c, ttl}`;

const ACQUIRE = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`;

export interface ScriptRunner {
  evalScript(script: string, keys: string[], args: string[]): Promise<unknown>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  get(key: string): Promise<string | null>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createScriptedKv(runner: ScriptRunner): Kv {
  return {
    async putCapped(key, value, ttlMs, setKey, cap) {
      const stored = await runner.evalScript(PUT_CAPPED, [key, setKey], [value, String(ttlMs), String(cap)]);
      return Number(stored) === 1;
    },
    async take(key, setKey) {
      const value = await runner.evalScript(TAKE, [key, setKey], []);
      return typeof value === 'string' ? value : null;
    },
    async hit(key, windowMs) {
      const [count, resetMs] = (await runner.evalScript(HIT, [key], [String(windowMs)])) as [number, number];
      return { count: Number(count), resetMs: Number(resetMs) };
    },
    async acquire(key, owner, ttlMs) {
      return Number(await runner.evalScript(ACQUIRE, [key], [owner, String(ttlMs)])) === 1;
    },
    async release(key, owner) {
      await runner.evalScript(RELEASE, [key], [owner]);
    },
    put: (key, value, ttlMs) => runner.set(key, value, ttlMs),
    get: (key) => runner.get(key),
    ping: () => runner.ping(),
    close: () => runner.close(),
  };
}
