// The settings of the CLI and the stdio MCP server, from the environment only (no config file, no
// token on disk): the key in TASKMARKET_PRIVATE_KEY, the server in TASKMARKET_URL, the chain in
// TASKMARKET_RPC_URL. Each invocation builds one client and signs in at most once, when needed.
import { privateKeyToAccount } from 'viem/accounts';
import { createClient } from '../index.js';

export const DEFAULT_URL = 'http://localhost:3000';

export type Client = ReturnType<typeof createClient>;

/** A problem with the invocation itself (a missing key, a malformed flag): exit 2, like a usage error. */
export class UsageError extends Error {}

export interface Settings {
  baseUrl: string;
  privateKey?: `0x${string}`;
  /** A personal access token (TASKMARKET_TOKEN) instead of the key: no signing, only its scopes. */
  token?: string;
  rpcUrl?: string;
  /** The directory MCP tools may upload files from (TASKMARKET_FILE_ROOT); the CLI reads whatever paths you type. */
  fileRoot?: string;
}

/** The environment as the CLI reads it (a plain record: tests pass their own). */
export type Env = Readonly<Record<string, string | undefined>>;

export function readSettings(env: Env = process.env): Settings {
  const key = env.TASKMARKET_PRIVATE_KEY?.trim();
  if (key !== undefined && key !== '' && !/^0x[0-9a-fA-F]{64}$/.test(key)) {
    throw new UsageError('TASKMARKET_PRIVATE_KEY must be a 0x-prefixed 32-byte hex private key');
  }
  return {
    baseUrl: (env.TASKMARKET_URL?.trim() || DEFAULT_URL).replace(/\/+$/, ''),
    ...(key ? { privateKey: key as `0x${string}` } : {}),
    ...(env.TASKMARKET_TOKEN?.trim() ? { token: env.TASKMARKET_TOKEN.trim() } : {}),
    ...(env.TASKMARKET_RPC_URL?.trim() ? { rpcUrl: env.TASKMARKET_RPC_URL.trim() } : {}),
    ...(env.TASKMARKET_FILE_ROOT?.trim() ? { fileRoot: env.TASKMARKET_FILE_ROOT.trim() } : {}),
  };
}

/**
 * The client for this invocation. `signed` commands need the key; `chain` commands (funding,
 * self-minting) need the RPC URL too. Public reads work without either.
 */
export function requireNeeds(settings: Settings, needs: { signed?: boolean; chain?: boolean }): void {
  if (needs.signed && !settings.privateKey && !settings.token) {
    throw new UsageError(
      'Neither TASKMARKET_PRIVATE_KEY nor TASKMARKET_TOKEN is set: this command signs in with ' +
        'your wallet key or a personal access token',
    );
  }
  if (needs.chain && !settings.rpcUrl) {
    throw new UsageError(
      'TASKMARKET_RPC_URL is not set: this command sends a transaction (e.g. http://127.0.0.1:8545 for `npm run dev`)',
    );
  }
}

export function clientFor(settings: Settings): Client {
  return createClient({
    baseUrl: settings.baseUrl,
    ...(settings.privateKey ? { account: privateKeyToAccount(settings.privateKey) } : { token: settings.token }),
    ...(settings.rpcUrl ? { rpcUrl: settings.rpcUrl } : {}),
  });
}
