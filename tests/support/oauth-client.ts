// The AI client's side of OAuth in the tests: the MCP SDK's OAuthClientProvider holding its
// registration, PKCE verifier and tokens in memory, and a loopback callback server (RFC 8252)
// that catches the redirect the consent page sends the browser to.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { extractWWWAuthenticateParams, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

export class MemoryOAuthProvider implements OAuthClientProvider {
  readonly expectedState = randomBytes(16).toString('base64url');
  private information: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier: string | undefined;

  constructor(
    readonly redirectUrl: string,
    readonly clientMetadata: OAuthClientMetadata,
    /** Where a person's browser would go: the test opens the URL in its Playwright page. */
    private readonly open: (authorizationUrl: URL) => Promise<void>,
  ) {}

  state = () => this.expectedState;
  clientInformation = () => this.information;
  saveClientInformation = (information: OAuthClientInformationMixed) => void (this.information = information);
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => void (this.saved = tokens);
  redirectToAuthorization = (authorizationUrl: URL) => this.open(authorizationUrl);
  saveCodeVerifier = (verifier: string) => void (this.verifier = verifier);
  codeVerifier = () => {
    if (!this.verifier) throw new Error('no PKCE verifier saved: authorization never started');
    return this.verifier;
  };
  /** Called by the SDK when the server refuses what it holds (a revoked grant's refresh token). */
  invalidateCredentials = (scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') => {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.information = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
  };

  /**
   * The client side of a step-up (docs/agents.md#step-up-with-the-typescript-sdk): the MCP SDK
   * (1.32) answers a 403 `insufficient_scope` by refreshing its token when it holds a refresh token,
   * and a refresh never widens a grant (RFC 6749 §6), so its retry meets the same 403 and it gives
   * up ("Server returned 403 after trying upscoping"; modelcontextprotocol/typescript-sdk#2255).
   * This fetch, given to the transport, forgets the refresh token when a challenge names a scope
   * the token lacks, so the SDK sends the person to consent instead — what later SDKs do by
   * themselves (#2356). Everything else — the challenge, the new authorization, the retry — is the
   * SDK's own.
   */
  steppingUp(base: FetchLike = fetch): FetchLike {
    return async (url, init) => {
      const response = await base(url, init);
      if (response.status !== 403 || !this.saved?.refresh_token) return response;
      const { error, scope } = extractWWWAuthenticateParams(response);
      const held = new Set((this.saved.scope ?? '').split(' '));
      if (error === 'insufficient_scope' && scope?.split(' ').some((s) => !held.has(s))) {
        this.saved = { ...this.saved, refresh_token: undefined };
      }
      return response;
    };
  }
}

export interface CallbackServer {
  /** http://127.0.0.1:<port>/callback */
  url: string;
  /** The query of the next request to /callback (code, state, iss or error). */
  next(): Promise<URLSearchParams>;
  close(): Promise<void>;
}

export async function startCallbackServer(): Promise<CallbackServer> {
  const arrived: URLSearchParams[] = [];
  const waiting: ((query: URLSearchParams) => void)[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const take = waiting.shift();
    if (take) take(url.searchParams);
    else arrived.push(url.searchParams);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="en"><title>Connected</title><main><h1>You can close this window</h1></main></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/callback`,
    next: () => {
      const query = arrived.shift();
      return query ? Promise.resolve(query) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
