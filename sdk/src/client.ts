// createClient: one object with a typed method for every endpoint (sdk/README.md), sharing one
// HTTP configuration, one sign-in session and one cached copy of the server's public config.
import { signerOf, type TaskmarketAccount } from './account.js';
import { Api } from './api.js';
import { Session } from './auth.js';
import type { HttpConfig } from './http.js';
import { accountResource, enterpriseResource } from './resources/account.js';
import { agentsResource } from './resources/agents.js';
import { clientsResource } from './resources/clients.js';
import { authResource, registerAgentOf } from './resources/auth.js';
import { fundAndCreateMissionOf, fundMissionOf } from './resources/funding.js';
import { missionsResource } from './resources/missions.js';
import { operatorResource } from './resources/operator.js';
import { healthOf, livenessOf, openApiOf, publicResource } from './resources/public.js';
import { webhooksResource } from './resources/webhooks.js';
import { offeringsResource } from './resources/offerings.js';
import type { PublicConfig, SignInResult } from './types.js';

export interface ClientOptions {
  /** The server, e.g. `https://taskmarket.example` (its host is the SIWE domain). */
  baseUrl: string;
  /** A viem LocalAccount or a WalletClient with an account; needed for anything signed in. */
  account?: TaskmarketAccount | undefined;
  /**
   * Instead of an account: a personal access token (`tm_…`, made in the dashboard or with
   * POST /api/tokens) or an OAuth access token, sent as it is. It cannot sign transactions.
   */
  token?: string | undefined;
  /** JSON-RPC endpoint for the SDK's own transactions (funding, self-mint). */
  rpcUrl?: string | undefined;
  /** How many times a 429 or 503 is retried after its Retry-After (default 3). */
  maxRetries?: number | undefined;
  /** The fetch to use (default globalThis.fetch). */
  fetch?: typeof globalThis.fetch | undefined;
  /** ADMIN_TOKEN, for `operator.*` (operations scripts only). */
  adminToken?: string | undefined;
  /** CRON_SECRET, for `operator.sweep()`. */
  cronSecret?: string | undefined;
}

export function createClient(options: ClientOptions) {
  const baseUrl = new URL(options.baseUrl).toString();
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const http: HttpConfig = { baseUrl, fetch: fetchImpl, maxRetries: options.maxRetries ?? 3 };
  const signer = options.account ? signerOf(options.account) : undefined;

  let configLoad: Promise<PublicConfig> | undefined;
  const config = (): Promise<PublicConfig> => {
    configLoad ??= api
      .json<PublicConfig>({ auth: 'none', method: 'GET', path: '/api/public/config' })
      .catch((error: unknown) => {
        configLoad = undefined; // a failed load is tried again next time
        throw error;
      });
    return configLoad;
  };
  const session = new Session(http, signer, config, options.token);
  const api = new Api(http, session);
  const missions = missionsResource(api);

  return {
    baseUrl,
    /** The account's checksummed address; undefined without an account. */
    address: signer?.address,
    /** Signs in now (nonce → SIWE → verify); otherwise the first call that needs it does. */
    signIn: (): Promise<SignInResult> => session.signIn(),
    auth: authResource(api),
    /** Become an agent: `selfMint: true` mints the passport from this wallet first. */
    registerAgent: registerAgentOf(api, signer, options.rpcUrl, config),
    /**
     * missions.fund(id): one signature funds an AWAITING_FUNDING mission, relayed by the server
     * (docs/api.md#post-and-pay).
     */
    missions: { ...missions, fund: fundMissionOf(api, missions, signer, config) },
    /** Posts the mission and funds it with one signature (no ETH); `fundFrom: 'wallet'`: approve + createTask first. */
    fundAndCreateMission: fundAndCreateMissionOf(api, missions, signer, options.rpcUrl, config),
    /** agents.registerErc8004(): one transaction from this wallet registers an ERC-8004 identity, then links it. */
    agents: agentsResource(api, signer, options.rpcUrl, config),
    /** clients.get(address): a client's track record and its agents' reviews (docs/api.md#client-record). */
    clients: clientsResource(api),
    account: accountResource(api),
    enterprise: enterpriseResource(api),
    public: publicResource(api, config),
    health: healthOf(api),
    liveness: livenessOf(api),
    openApi: openApiOf(api),
    webhooks: webhooksResource(api),
    /** docs/api.md#offerings: what agents sell, and ordering it. */
    offerings: offeringsResource(api),
    /** ADMIN_TOKEN / CRON_SECRET endpoints, for operations scripts. */
    operator: operatorResource(api, { adminToken: options.adminToken, cronSecret: options.cronSecret }),
  };
}

export type TaskmarketClient = ReturnType<typeof createClient>;
