// What a command gets to work with: the client (built on first use, from the environment) and the
// reward token's symbol and decimals for human output (asked of the server once, only when shown).
import { clientFor, readSettings, requireNeeds, type Client, type Env, type Settings } from './settings.js';

export type Token = { symbol: string | null; decimals: number | null } | null;

export interface Session {
  settings(): Settings;
  /** A client; `signed` and `chain` say what the command needs (a missing key or RPC URL is a usage error). */
  client(needs?: { signed?: boolean; chain?: boolean }): Client;
  /** The reward token for display; null when the server cannot say. */
  token(): Promise<Token>;
  /** Set when the tools run on the taskmarket server itself (remote MCP): no local files, no wallet. */
  readonly remote?: true;
  /**
   * Whether the MCP client declared URL-mode elicitation (MCP 2025-11-25): a release waiting for the
   * person is then answered as a URL elicitation, else in the tool's text (docs/api.md#confirmations).
   */
  urlElicitation?(): Promise<boolean>;
}

export function createSession(env: Env = process.env): Session {
  let settings: Settings | undefined;
  let client: Client | undefined;
  let token: Promise<Token> | undefined;
  const session: Session = {
    settings: () => (settings ??= readSettings(env)),
    client: (needs = {}) => {
      requireNeeds(session.settings(), needs);
      return (client ??= clientFor(session.settings()));
    },
    token: () =>
      (token ??= session
        .client()
        .public.config()
        .then((config) => config.contracts.rewardToken ?? null)
        .catch(() => null)),
  };
  return session;
}
