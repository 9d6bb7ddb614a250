// Wallet and sign-in failures as people should read them. A wallet reports a refusal as EIP-1193
// error 4001 (viem: UserRejectedRequestError), somewhere down the error's cause chain.
import { ApiRequestError, describeApiError } from './api-client';

export type WalletProblem =
  | { kind: 'rejected'; message: string }
  | { kind: 'wrong-network'; message: string }
  | { kind: 'nonce-expired'; message: string }
  | { kind: 'no-wallet'; message: string }
  | { kind: 'other'; message: string };

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current && chain.length < 10) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

const codeOf = (e: unknown) => (e as { code?: unknown }).code;
const nameOf = (e: unknown) => (e as { name?: unknown }).name;

export function classifyWalletError(error: unknown): WalletProblem {
  const chain = causes(error);
  // EIP-1193: 4001 = user rejected the request.
  if (chain.some((e) => codeOf(e) === 4001 || nameOf(e) === 'UserRejectedRequestError')) {
    return {
      kind: 'rejected',
      message: 'You declined the request in your wallet. Nothing was signed or sent; try again when you are ready.',
    };
  }
  if (chain.some((e) => nameOf(e) === 'ConnectorChainMismatchError' || nameOf(e) === 'ChainMismatchError')) {
    return { kind: 'wrong-network', message: 'Your wallet is on another network. Switch networks and try again.' };
  }
  if (chain.some((e) => nameOf(e) === 'ProviderNotFoundError')) {
    return {
      kind: 'no-wallet',
      message: 'No browser wallet was found. Install a wallet extension (for example MetaMask) and reload this page.',
    };
  }
  if (chain.some((e) => nameOf(e) === 'ConnectorNotConnectedError')) {
    return { kind: 'no-wallet', message: 'No wallet is connected. Connect a browser wallet first.' };
  }
  const api = chain.find((e): e is ApiRequestError => e instanceof ApiRequestError);
  if (api?.status === 401 && /nonce/i.test(api.message)) {
    return {
      kind: 'nonce-expired',
      message: 'Your sign-in request expired or was already used. Press “Sign in” to get a fresh one.',
    };
  }
  if (api) return { kind: 'other', message: describeApiError(api) };
  const short = chain
    .map((e) => (e as { shortMessage?: unknown }).shortMessage)
    .find((m): m is string => typeof m === 'string');
  return { kind: 'other', message: short ?? (error instanceof Error ? error.message : String(error)) };
}
