// Requests this process is answering right now (docs/api.md#webhook-fan-out): counted by `observed`
// around every route handler, read by the webhook worker, which on the embedded database steps
// aside while any is under way. The count is the process's, not this module copy's: Next.js bundles
// the module into each route.
import { currentRequest } from './request-context';

const holder = globalThis as unknown as { [key: symbol]: { n: number } | undefined };
const count = (holder[Symbol.for('taskmarket.requests-in-flight')] ??= { n: 0 });

export const requestStarted = () => {
  count.n += 1;
};
export const requestEnded = () => {
  count.n -= 1;
};
/** Requests under way but the caller's own (a sweep delivering inside its request; work after a response is none). */
export const otherRequestsInFlight = () => count.n - (currentRequest()?.inFlight ? 1 : 0);

/**
 * Runs `work` as background work even inside a request (the sweep delivering webhooks in its own
 * answer): that request stops counting as one to yield to until `work` ends, so two sweeps never
 * wait on each other.
 */
export async function asBackgroundWork<T>(work: () => Promise<T>): Promise<T> {
  const context = currentRequest();
  if (!context?.inFlight) return work();
  context.inFlight = false;
  requestEnded();
  try {
    return await work();
  } finally {
    context.inFlight = true;
    requestStarted();
  }
}
