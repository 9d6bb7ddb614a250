// The KV operations as Lua scripts, shared by every Redis-protocol driver (Redis, Vercel KV), so
// each operation is one atomic server-side step.
import type { Kv } from './types';

// Each operation is a Lua function, so the limit's hit and the work it guards can run as one
// script: one round trip instead of two for nonce and verify (hitThen… below).
// Server time (TIME), not the caller's clock: instances with skewed clocks still agree on expiry.
const PUT_CAPPED_FN = `
local function put_capped(key, value, ttl, set, cap)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  redis.call('ZREMRANGEBYSCORE', set, '-inf', now)
  if redis.call('ZCARD', set) >= tonumber(cap) then return 0 end
  redis.call('SET', key, value, 'PX', ttl)
  redis.call('ZADD', set, now + tonumber(ttl), key)
  redis.call('PEXPIRE', set, ttl)
  return 1
end`;

// The oldest members are the lowest scores (expiry times, one TTL per set); their keys go with them.
const PUT_EVICTING_OLDEST = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local set, ttl = KEYS[2], tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', set, '-inf', now)
local over = redis.call('ZCARD', set) - tonumber(ARGV[3]) + 1
if over > 0 then
  for _, member in ipairs(redis.call('ZRANGE', set, 0, over - 1)) do redis.call('DEL', member) end
  redis.call('ZREMRANGEBYRANK', set, 0, over - 1)
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
redis.call('ZADD', set, now + ttl, KEYS[1])
redis.call('PEXPIRE', set, ttl)
return 1`;

const TAKE_FN = `
local function take(key, set)
  local v = redis.call('GET', key)
  if v then
    redis.call('DEL', key)
    redis.call('ZREM', set, key)
  end
  return v
end`;

const HIT_FN = `
local function hit(key, window)
  local c = redis.call('INCR', key)
  local ttl = redis.call('PTTL', key)
  if ttl < 0 then
    redis.call('PEXPIRE', key, window)
    ttl = tonumber(window)
  end
  return c, ttl
end`;

// DECR keeps the key's expiry; a window that expired meanwhile is not recreated.
const UNHIT = `
local c = tonumber(redis.call('GET', KEYS[1]))
if c and c > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

const PUT_CAPPED = `${PUT_CAPPED_FN}\nreturn put_capped(KEYS[1], ARGV[1], ARGV[2], KEYS[2], ARGV[3])`;
const TAKE = `${TAKE_FN}\nreturn take(KEYS[1], KEYS[2])`;
const HIT = `${HIT_FN}\nlocal c, ttl = hit(KEYS[1], ARGV[1])\nreturn {c, ttl}`;
// Past the limit the work is not done; a nil value is written as false (nil would end the array).
const HIT_THEN_PUT_CAPPED = `${HIT_FN}${PUT_CAPPED_FN}
local c, ttl = hit(KEYS[1], ARGV[1])
if c > tonumber(ARGV[2]) then return {c, ttl, 0} end
return {c, ttl, put_capped(KEYS[2], ARGV[3], ARGV[4], KEYS[3], ARGV[5])}`;
const HIT_THEN_TAKE = `${HIT_FN}${TAKE_FN}
local c, ttl = hit(KEYS[1], ARGV[1])
if c > tonumber(ARGV[2]) then return {c, ttl, false} end
return {c, ttl, take(KEYS[2], KEYS[3]) or false}`;

const ACQUIRE = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`;

// Redis takes a PX of whole milliseconds that keeps its clock in 64 bits. A life can come from a
// token's own exp (a revocation lasts until then), fractional or far off: it is rounded up and held
// to 2^53 - 1 ms (285,000 years), where the memory driver takes any number as it is.
const wholeMs = (ttlMs: number): number => Math.min(Math.max(1, Math.ceil(ttlMs)), Number.MAX_SAFE_INTEGER);

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
    async putEvictingOldest(key, value, ttlMs, setKey, cap) {
      await runner.evalScript(PUT_EVICTING_OLDEST, [key, setKey], [value, String(ttlMs), String(cap)]);
    },
    async take(key, setKey) {
      const value = await runner.evalScript(TAKE, [key, setKey], []);
      return typeof value === 'string' ? value : null;
    },
    async hit(key, windowMs) {
      const [count, resetMs] = (await runner.evalScript(HIT, [key], [String(windowMs)])) as [number, number];
      return { count: Number(count), resetMs: Number(resetMs) };
    },
    async unhit(key) {
      await runner.evalScript(UNHIT, [key], []);
    },
    async hitThenPutCapped(charge, key, value, ttlMs, setKey, cap) {
      const [count, resetMs, stored] = (await runner.evalScript(
        HIT_THEN_PUT_CAPPED,
        [charge.key, key, setKey],
        [String(charge.windowMs), String(charge.max), value, String(ttlMs), String(cap)],
      )) as [number, number, number];
      return { hit: { count: Number(count), resetMs: Number(resetMs) }, stored: Number(stored) === 1 };
    },
    async hitThenTake(charge, key, setKey) {
      const [count, resetMs, value] = (await runner.evalScript(
        HIT_THEN_TAKE,
        [charge.key, key, setKey],
        [String(charge.windowMs), String(charge.max)],
      )) as [number, number, unknown];
      return {
        hit: { count: Number(count), resetMs: Number(resetMs) },
        value: typeof value === 'string' ? value : null,
      };
    },
    async acquire(key, owner, ttlMs) {
      return Number(await runner.evalScript(ACQUIRE, [key], [owner, String(ttlMs)])) === 1;
    },
    async release(key, owner) {
      await runner.evalScript(RELEASE, [key], [owner]);
    },
    put: (key, value, ttlMs) => runner.set(key, value, wholeMs(ttlMs)),
    get: (key) => runner.get(key),
    ping: () => runner.ping(),
    close: () => runner.close(),
  };
}
