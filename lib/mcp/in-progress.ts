// The remote MCP endpoint's cap on work in progress (docs/api.md#limits): one message may hold a
// message body of several MB and a tool's answer, so an instance runs at most MCP_MAX_CONCURRENT of
// them at once and answers 503 beyond — a count in this process, since it is this process's memory
// that it bounds (the per-user rate limit, in the shared KV, is the cross-instance one).
import { ApiError } from '../errors';

let inProgress = 0;

/**
 * Runs `work` in one of `max` slots of this instance; with none free, 503 with Retry-After and
 * `work` never starts. The slot comes back however `work` ends: an answer, a refusal, or a body
 * stream that failed because the client went away.
 */
export async function inSlot<T>(max: number, work: () => Promise<T>): Promise<T> {
  if (inProgress >= max) {
    throw new ApiError(
      503,
      `Too many MCP requests in progress on this instance (at most ${max}); retry shortly`,
      undefined,
      { 'Retry-After': '1' },
    );
  }
  inProgress++;
  try {
    return await work();
  } finally {
    inProgress--;
  }
}
