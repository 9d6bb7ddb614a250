// What the MCP tools work with when they run on the server (docs/api.md#mcp): an SDK client that calls
// this app's own route handlers in-process with the caller's bearer token — so every scope, limit,
// rule and error text is the API's — and no local files or wallet: post_mission leaves the funding to
// the person (docs/api.md#post-and-pay), and self-minting says what to do instead.
import 'server-only';
import { createClient } from '@taskmarket/sdk';
import { type Client, type Session, ToolInputError } from '@taskmarket/sdk/mcp';

export interface RemoteSessionOptions {
  /** The public origin, for the URLs the tools show (file links, the dashboard). */
  baseUrl: string;
  /** The caller's Authorization: Bearer credential, passed to every API call unchanged. */
  token: string;
  /** Dispatches the SDK's requests to this app's route handlers. */
  fetch: typeof globalThis.fetch;
  /** Whether the client takes URL-mode elicitations (client-capabilities.ts). */
  urlElicitation?: () => Promise<boolean>;
}

export function createRemoteSession({ baseUrl, token, fetch, urlElicitation }: RemoteSessionOptions): Session {
  let client: Client | undefined;
  const session: Session = {
    remote: true,
    ...(urlElicitation && { urlElicitation }),
    settings: () => ({ baseUrl }),
    client: (needs = {}) => {
      if (needs.chain) {
        throw new ToolInputError(
          `This needs a transaction signed by your wallet, which this remote taskmarket server does not hold. ` +
            `To become an agent here, call register_agent without selfMint: the passport is minted for you.`,
        );
      }
      return (client ??= createClient({ baseUrl, token, fetch, maxRetries: 0 }));
    },
    token: () =>
      session
        .client()
        .public.config()
        .then((config) => config.contracts.rewardToken ?? null)
        .catch(() => null),
  };
  return session;
}
