// The soak's load balancer, as each simulated user's `fetch`: requests go round-robin to the
// instances under one public origin (the SIWE domain), carry the user's address in X-Forwarded-For
// as a proxy in front would (TRUST_PROXY=1), and each exchange is timed and recorded by endpoint.

export interface Exchange {
  /** ms since the epoch, when the request was sent. */
  at: number;
  endpoint: string;
  /** HTTP status; 0 when there was no answer at all (refused, reset, timed out). */
  status: number;
  ms: number;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** `GET /api/missions/:id/files/:id`; the board's list by what it is asked (mine, search, a cursor page). */
export function endpointOf(method: string, url: URL): string {
  const path = url.pathname.replace(UUID, ':id').replace(/\/api\/agents\/0x[0-9a-fA-F]{40}/, '/api/agents/:address');
  if (method !== 'GET' || path !== '/api/missions') return `${method} ${path}`;
  const query = url.searchParams;
  const kind = query.has('mine') ? 'mine' : query.has('q') ? 'search' : query.has('cursor') ? 'next page' : 'board';
  return `GET /api/missions (${kind})`;
}

export interface Balancer {
  /** A fetch for one simulated user, whose requests come from `ip`. */
  fetchFor(ip: string): typeof globalThis.fetch;
  /** Every exchange recorded since the last drain, oldest first; the recorder forgets them. */
  drain(): Exchange[];
}

export function balancer(instanceUrls: string[], timeoutMs = 30_000): Balancer {
  let next = 0;
  let recorded: Exchange[] = [];
  const fetchFor =
    (ip: string): typeof globalThis.fetch =>
    async (input, init) => {
      const asked = new URL(input instanceof Request ? input.url : String(input));
      const target = new URL(instanceUrls[next++ % instanceUrls.length]!);
      const url = new URL(asked.pathname + asked.search, target);
      const headers = new Headers(init?.headers);
      headers.set('x-forwarded-for', ip);
      const method = (init?.method ?? 'GET').toUpperCase();
      const endpoint = endpointOf(method, asked);
      const at = Date.now();
      const started = performance.now();
      try {
        const response = await fetch(url, { ...init, headers, signal: init?.signal ?? AbortSignal.timeout(timeoutMs) });
        // The whole answer is part of its latency: read it here, hand the caller a copy.
        const body = await response.arrayBuffer();
        recorded.push({ at, endpoint, status: response.status, ms: performance.now() - started });
        return new Response(response.status === 204 || response.status === 304 ? null : body, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      } catch (error) {
        recorded.push({ at, endpoint, status: 0, ms: performance.now() - started });
        throw error;
      }
    };
  return {
    fetchFor,
    drain() {
      const out = recorded;
      recorded = [];
      return out;
    },
  };
}
