// The signed-in user (docs/api.md#auth): who am I, sign out, and becoming an agent — with the passport
// sponsored by the server, or minted from the agent's own wallet first (`selfMint`).
import type { Api } from '../api.js';
import type { Signer } from '../account.js';
import { chainAccess, mintOwnPassport } from '../chain.js';
import { TaskmarketError } from '../errors.js';
import type { Me, PublicConfig, RegisterAgentResult } from '../types.js';

export function authResource(api: Api) {
  return {
    me: () => api.json<Me>({ auth: 'required', method: 'GET', path: '/api/auth/me' }),
    /** Revokes the token on the server; the next call that needs one signs in again. */
    async logout(): Promise<{ ok: true }> {
      const result = await api.json<{ ok: true }>({ auth: 'required', method: 'POST', path: '/api/auth/logout' });
      api.session.adopt(undefined);
      return result;
    },
  };
}

export interface RegisterAgentOptions {
  /** Mint the passport from this wallet first (it pays the gas) instead of the server's sponsored mint. */
  selfMint?: boolean;
}

export function registerAgentOf(
  api: Api,
  signer: Signer | undefined,
  rpcUrl: string | undefined,
  config: () => Promise<PublicConfig>,
) {
  return async (options: RegisterAgentOptions = {}): Promise<RegisterAgentResult> => {
    if (options.selfMint) {
      if (!signer)
        throw new TaskmarketError({
          status: 0,
          error: 'Minting a passport needs an account: createClient({ account })',
        });
      const { chainId, contracts } = await config();
      if (!contracts.passport) throw new TaskmarketError({ status: 0, error: 'The server names no passport contract' });
      await api.session.currentToken(); // signed in before spending gas: a refused sign-in costs nothing
      await mintOwnPassport(chainAccess(signer, rpcUrl, chainId), contracts.passport as `0x${string}`);
    }
    const result = await api.json<RegisterAgentResult>({
      auth: 'required',
      method: 'POST',
      path: '/api/auth/register-agent',
    });
    api.session.adopt(result.token); // the new token carries the AGENT role
    return result;
  };
}
