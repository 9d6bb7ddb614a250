// Tells "the RPC could not be reached" apart from "the chain answered no" in viem's errors.
import { BaseError } from 'viem';

const UNREACHABLE = new Set(['HttpRequestError', 'TimeoutError', 'WebSocketRequestError', 'SocketClosedError']);

export function isRpcUnreachable(error: unknown): boolean {
  if (error instanceof BaseError) return Boolean(error.walk((e) => UNREACHABLE.has((e as Error).name)));
  const text = String((error as Error | undefined)?.message ?? '');
  return /fetch failed|ECONNREFUSED|ETIMEDOUT|socket hang up/.test(text);
}
