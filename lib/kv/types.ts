// The KV interface: the few atomic operations nonces, rate limits and revocations need.
// Every driver implements each operation atomically, so many instances behave as one.

export interface Hit {
  count: number;
  resetMs: number;
}

/** One hit against a fixed-window limit: `key` counts, the window is `windowMs`, `max` hits pass. */
export interface Charge {
  key: string;
  windowMs: number;
  max: number;
}

/** A charge counted by a KV step that does other work too; `record` takes the count that step answered. */
export interface CountedCharge extends Charge {
  record(hit: Hit): void;
}

export interface Kv {
  /**
   * Stores `value` under `key` for `ttlMs` and counts it in the live set `setKey`, unless that
   * set already holds `cap` unexpired members; answers whether it was stored.
   */
  putCapped(key: string, value: string, ttlMs: number, setKey: string, cap: number): Promise<boolean>;
  /**
   * Stores `value` under `key` for `ttlMs` and counts it in the live set `setKey`; when that set
   * already holds `cap` unexpired members, the oldest are deleted first (one TTL per set, so the
   * oldest are the soonest to expire). For what a newer copy replaces, such as an open form.
   */
  putEvictingOldest(key: string, value: string, ttlMs: number, setKey: string, cap: number): Promise<void>;
  /** Reads and deletes `key` in one step (and drops it from `setKey`): at most one caller sees it. */
  take(key: string, setKey: string): Promise<string | null>;
  /** Counts one hit in the fixed window `key` of `windowMs`; answers the count and the window's remaining ms. */
  hit(key: string, windowMs: number): Promise<Hit>;
  /** Takes one hit back from the window `key` (never below zero, its expiry kept): a charge whose work was not done. */
  unhit(key: string): Promise<void>;
  /** `hit` of `charge`, then — unless the count passes `charge.max` — `putCapped`, in one atomic step. */
  hitThenPutCapped(
    charge: Charge,
    key: string,
    value: string,
    ttlMs: number,
    setKey: string,
    cap: number,
  ): Promise<{ hit: Hit; stored: boolean }>;
  /** `hit` of `charge`, then — unless the count passes `charge.max` — `take`, in one atomic step. */
  hitThenTake(charge: Charge, key: string, setKey: string): Promise<{ hit: Hit; value: string | null }>;
  /** Stores `owner` under `key` for `ttlMs` only if the key is free; answers whether it was (a lease). */
  acquire(key: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Deletes `key` only while `owner` still holds it: an expired lease taken by another stays theirs. */
  release(key: string, owner: string): Promise<void>;
  put(key: string, value: string, ttlMs: number): Promise<void>;
  get(key: string): Promise<string | null>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
