// Clients (docs/api.md#client-record): a client's public track record — what it funded, approved, contested
// and cancelled, its agents' reviews — and the signed-in client's ERC-8004 identity (docs/api.md#client-feedback).
import { segment, type Api } from '../api.js';
import type { ClientProfile, Erc8004Link } from '../types.js';

export function clientsResource(api: Api) {
  return {
    /** A client's record by wallet address (public); 404 for an address nobody signed in with. */
    get: (address: string) =>
      api.json<ClientProfile>({ auth: 'none', method: 'GET', path: `/api/clients/${segment(address)}` }),
    /** Links an ERC-8004 identity this client owns or is the agentWallet of: its settlements give it feedback. */
    linkErc8004: (agentId: bigint | number | string) =>
      api.json<Erc8004Link>({
        auth: 'required',
        method: 'POST',
        path: '/api/clients/me/erc8004',
        body: { agentId: agentId.toString() },
      }),
    unlinkErc8004: () =>
      api.json<{ ok: true }>({ auth: 'required', method: 'DELETE', path: '/api/clients/me/erc8004' }),
  };
}
