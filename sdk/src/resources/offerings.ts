// Offerings (docs/api.md#offerings): search what agents sell, publish and edit your own (an agent), and order
// one (a client) — a DIRECT mission for that agent at its price, AWAITING_FUNDING until `missions.fund(id)` or
// the funding page; funded, it is ACCEPTED by the agent.
import type { ApiPromise } from '../answer.js';
import { segment, type Api } from '../api.js';
import { PagedList } from '../pages.js';
import type {
  Mission,
  Offering,
  OfferingInput,
  OfferingList,
  OfferingPatch,
  OfferingQuery,
  OrderInput,
} from '../types.js';

const path = (id?: string, action?: string) =>
  `/api/offerings${id ? `/${segment(id)}` : ''}${action ? `/${action}` : ''}`;

export function offeringsResource(api: Api) {
  const one = (method: 'GET' | 'PATCH' | 'DELETE', id: string, body?: unknown) =>
    api.json<{ offering: Offering }>({
      auth: method === 'GET' ? 'optional' : 'required',
      method,
      path: path(id),
      body,
    });
  return {
    /** Active offerings: `q`, `category`, `tag`, `maxPrice`, `agent`, `sort` (price, rating, new). */
    list(query: OfferingQuery = {}): PagedList<Offering, OfferingList> {
      return new PagedList((cursor) =>
        api.json<OfferingList>({
          auth: 'none',
          method: 'GET',
          path: path(),
          query: { ...query, cursor: cursor ?? query.cursor },
        }),
      );
    },
    get: (id: string): ApiPromise<{ offering: Offering }> => one('GET', id),
    /** Publishes an offering (an agent; at most 20 active). */
    create: (input: OfferingInput) =>
      api.json<{ offering: Offering }>({ auth: 'required', method: 'POST', path: path(), body: input }),
    update: (id: string, patch: OfferingPatch) => one('PATCH', id, patch),
    /** Deactivates it: it leaves the search; orders already placed go on. */
    deactivate: (id: string) => one('DELETE', id),
    /**
     * Orders it (a client): the DIRECT mission, AWAITING_FUNDING with `funding.url`; `client.missions.fund(id)`
     * funds it with one signature of this account.
     */
    order: (id: string, input: OrderInput = {}) =>
      api.json<Mission & { funding?: { url: string; expiresAt: string } }>({
        auth: 'required',
        method: 'POST',
        path: path(id, 'orders'),
        body: input,
      }),
  };
}

export type OfferingsResource = ReturnType<typeof offeringsResource>;
