// Tells "the RPC could not be reached" apart from "the chain answered no" in viem's errors.
import { BaseError, ExecutionRevertedError, RpcRequestError } from 'viem';
import { DependencyDown } from '../errors';

const UNREACHABLE = new Set(['HttpRequestError', 'TimeoutError', 'WebSocketRequestError', 'SocketClosedError']);

export function isRpcUnreachable(error: unknown): boolean {
  if (error instanceof BaseError) return Boolean(error.walk((e) => UNREACHABLE.has((e as Error).name)));
  const text = String((error as Error | undefined)?.message ?? '');
  return /fetch failed|ECONNREFUSED|ETIMEDOUT|socket hang up/.test(text);
}

/**
 * Whether a failed call was executed and reverted — the chain's own "no" — rather than a node
 * that could not or would not run it. JSON-RPC code 3 is the standard revert (EIP-1474 nodes,
 * anvil, geth); viem also recognises the "execution reverted" texts other nodes send.
 */
export function isExecutionRevert(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return Boolean(
    error.walk((e) => e instanceof ExecutionRevertedError || (e instanceof RpcRequestError && e.code === 3)),
  );
}

/**
 * What a failed send says, one line, fit for a text column: viem's shortMessage (its message carries the whole
 * request), else the message's first line. A node's revert text may hold a custom error's raw arguments (anvil's
 * and reth's do: NUL bytes), which PostgreSQL refuses in text — kept, the write recording the failure would fail.
 */
export function sendErrorText(error: unknown): string | undefined {
  const text =
    (error as { shortMessage?: string } | undefined)?.shortMessage ??
    (error as Error | undefined)?.message?.split('\n')[0];
  return text?.replace(/\p{Cc}/gu, '');
}

/** Runs a chain read; an unreachable RPC becomes a 503-bound DependencyDown instead of a 500. */
export async function readChain<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (isRpcUnreachable(error)) throw new DependencyDown('chain', error);
    throw error;
  }
}
