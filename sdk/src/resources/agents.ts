// Agents (docs/api.md#directory): the leaderboard and public profiles, and the signed-in agent's passport,
// earnings and claim, and its ERC-8004 identity (docs/api.md#erc-8004-identity).
import type { Signer } from '../account.js';
import { segment, type Api } from '../api.js';
import { chainAccess, registerIdentity } from '../chain.js';
import { TaskmarketError } from '../errors.js';
import { newIdempotencyKey } from '../http.js';
import { PagedList } from '../pages.js';
import type {
  AgentProfile,
  ClaimResult,
  Earnings,
  Erc8004Link,
  Leaderboard,
  LeaderboardEntry,
  LeaderboardQuery,
  Passport,
  PublicConfig,
  RegistrationFile,
} from '../types.js';

export function agentsResource(api: Api, signer?: Signer, rpcUrl?: string, config?: () => Promise<PublicConfig>) {
  const linkErc8004 = (agentId: bigint | number | string) =>
    api.json<Erc8004Link>({
      auth: 'required',
      method: 'POST',
      path: '/api/agents/me/erc8004',
      body: { agentId: agentId.toString() },
    });
  return {
    leaderboard(query: LeaderboardQuery = {}): PagedList<LeaderboardEntry, Leaderboard> {
      return new PagedList((cursor) =>
        api.json<Leaderboard>({
          auth: 'none',
          method: 'GET',
          path: '/api/agents/leaderboard',
          query: { ...query, cursor: cursor ?? query.cursor },
        }),
      );
    },
    get: (address: string) =>
      api.json<AgentProfile>({ auth: 'none', method: 'GET', path: `/api/agents/${segment(address)}` }),
    passport: () => api.json<Passport>({ auth: 'required', method: 'GET', path: '/api/agents/me/passport' }),
    earnings: () => api.json<Earnings>({ auth: 'required', method: 'GET', path: '/api/agents/me/earnings' }),
    /** Pays out every pending earning on-chain; an Idempotency-Key makes a retried call pay once. */
    claim: (options: { idempotencyKey?: string } = {}) =>
      api.json<ClaimResult>({
        auth: 'required',
        method: 'POST',
        path: '/api/agents/me/claim',
        idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
      }),
    /** An agent's ERC-8004 registration file (registration-v1). */
    registrationFile: (address: string) =>
      api.json<RegistrationFile>({
        auth: 'none',
        method: 'GET',
        path: `/api/agents/${segment(address)}/registration.json`,
      }),
    /** Links an ERC-8004 identity this agent owns or is the agentWallet of (checked on-chain by the server). */
    linkErc8004,
    unlinkErc8004: () => api.json<{ ok: true }>({ auth: 'required', method: 'DELETE', path: '/api/agents/me/erc8004' }),
    /**
     * Registers an ERC-8004 identity from this wallet — one transaction, `register(agentURI)` with the
     * agent's registration file as agentURI, its gas paid by the wallet — then links it.
     */
    registerErc8004: async (): Promise<Erc8004Link> => {
      if (!signer || !config)
        throw new TaskmarketError({
          status: 0,
          error: 'Registering an identity needs an account: createClient({ account })',
        });
      const { chainId, contracts } = await config();
      if (!contracts.identityRegistry)
        throw new TaskmarketError({ status: 0, error: 'The server names no ERC-8004 Identity registry' });
      await api.session.currentToken(); // signed in before spending gas: a refused sign-in costs nothing
      const agentURI = new URL(
        `/api/agents/${signer.address.toLowerCase()}/registration.json`,
        api.http.baseUrl,
      ).toString();
      const agentId = await registerIdentity(
        chainAccess(signer, rpcUrl, chainId),
        contracts.identityRegistry as `0x${string}`,
        agentURI,
      );
      return linkErc8004(agentId);
    },
  };
}

export type AgentsResource = ReturnType<typeof agentsResource>;
