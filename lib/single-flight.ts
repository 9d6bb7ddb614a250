// Concurrent misses of a cache share one load (docs/security.md#chain-reads): while a load for a key
// is in flight, every caller asking for that key waits on it instead of starting another, and is
// counted in taskmarket_shared_loads_total. Only loads in flight are held — each entry leaves when it
// settles, answer or failure — so the map is bounded by the requests running at once, and nothing is
// kept past its answer.
import { metrics } from './observability/metrics';

/** A keyed single-flight named `cache`: `load` runs once per key at a time; callers meanwhile share its promise. */
export function singleFlight<T>(cache: string) {
  const inFlight = new Map<string, Promise<T>>();
  return (key: string, load: () => Promise<T>): Promise<T> => {
    const running = inFlight.get(key);
    if (running) {
      metrics().sharedLoads.inc({ cache });
      return running;
    }
    const started = load().finally(() => inFlight.delete(key));
    inFlight.set(key, started);
    return started;
  };
}
