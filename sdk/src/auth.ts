// Signing in (docs/api.md#auth): nonce → EIP-4361 message → signature → verify, and keeping the token:
// it is reused until its `exp` comes near, then the next call signs in again. Concurrent calls
// share one sign-in. Which calls need a token, and what a 401 means, is decided by api.ts.
import { createSiweMessage } from 'viem/siwe';
import type { Signer } from './account.js';
import { TaskmarketError } from './errors.js';
import { ApiPromise } from './answer.js';
import { send, type HttpConfig } from './http.js';
import type { Answer, PublicConfig, SignInResult } from './types.js';

// A token this close to its `exp` is not used: the call could arrive after it expired.
const EXPIRY_MARGIN_MS = 10_000;

/** The `exp` claim of a JWT, in ms since the epoch; undefined when it cannot be read. */
export function tokenExpiry(token: string): number | undefined {
  try {
    const payload = token.split('.')[1];
    if (!payload) return undefined;
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    );
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export class Session {
  private token: string | undefined;
  private expiresAt: number | undefined;
  private pending: Promise<SignInResult> | undefined;

  constructor(
    private readonly http: HttpConfig,
    private readonly signer: Signer | undefined,
    private readonly config: () => Promise<PublicConfig>,
    /** A personal access token (tm_…) or an OAuth access token, used as it is: never renewed here. */
    private readonly fixedToken?: string,
  ) {}

  /** Whether calls can carry a token: an account to sign in with, or a fixed token. */
  get canSignIn(): boolean {
    return this.signer !== undefined || this.fixedToken !== undefined;
  }

  /** Whether a refused token can be replaced by signing in again. */
  get canRenew(): boolean {
    return this.signer !== undefined;
  }

  /** A token that is not about to expire, signing in first when there is none. */
  async currentToken(): Promise<string> {
    if (this.fixedToken !== undefined) return this.fixedToken;
    if (this.token && (this.expiresAt === undefined || Date.now() < this.expiresAt - EXPIRY_MARGIN_MS))
      return this.token;
    return (await this.signIn()).token;
  }

  /** Forgets `token` (a 401 answered it), unless a newer one replaced it meanwhile. */
  discard(token: string): void {
    if (this.token === token) this.adopt(undefined);
  }

  /** Keeps a token the server issued outside sign-in (register-agent answers one with the new role). */
  adopt(token: string | undefined): void {
    this.token = token;
    this.expiresAt = token ? tokenExpiry(token) : undefined;
  }

  /** Signs in now (again, if signed in already); concurrent callers share one sign-in. */
  signIn(): Promise<SignInResult> {
    this.pending ??= this.verify().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async verify(): Promise<SignInResult> {
    const signer = this.signer;
    if (!signer)
      throw new TaskmarketError({ status: 0, error: 'Signing in needs an account: createClient({ account })' });
    const { chainId, siwe } = await this.config();
    const post = <T>(path: string, body: unknown) => new ApiPromise<T>(send(this.http, { method: 'POST', path, body }));
    const { nonce } = await post<Answer<'postAuthNonce'>>('/api/auth/nonce', { address: signer.address });
    // EIP-4361: the domain and URI are those of the server this client talks to (baseUrl) — never
    // a domain the server names, or a server could collect signatures valid for another site.
    const base = new URL(this.http.baseUrl);
    const message = createSiweMessage({
      domain: base.host,
      address: signer.address,
      statement: siwe.statement || undefined,
      uri: base.origin,
      version: '1',
      chainId,
      nonce,
      issuedAt: new Date(),
    });
    let signature: `0x${string}`;
    try {
      signature = await signer.signMessage(message);
    } catch (cause) {
      throw new TaskmarketError({
        status: 0,
        error: `The account did not sign the sign-in message: ${(cause as Error)?.message ?? cause}`,
        cause,
      });
    }
    const result = await post<SignInResult>('/api/auth/verify', { message, signature });
    this.adopt(result.token);
    return result;
  }
}
