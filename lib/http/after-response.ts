// Work for once a response has gone (docs/api.md#one-door): Next.js's `after` inside a request. A handler
// called in-process has no such moment; a caller that collects the work (collectAfterResponse — the
// in-process test client, when asked) runs it itself, and otherwise the sweep finishes what was left.
import { AsyncLocalStorage } from 'node:async_hooks';
import { after } from 'next/server';

type Work = () => Promise<void>;

const holder = globalThis as unknown as { [key: symbol]: AsyncLocalStorage<Work[]> | undefined };
const collectors = (holder[Symbol.for('taskmarket.after-response')] ??= new AsyncLocalStorage<Work[]>());

export function afterResponse(work: Work): void {
  try {
    after(work);
  } catch {
    // Not inside a Next.js request.
    collectors.getStore()?.push(work);
  }
}

/** Runs `run`, then the after-response work it left, as Next.js would once the response had gone. */
export async function collectAfterResponse<T>(run: () => Promise<T>): Promise<T> {
  const pending: Work[] = [];
  const result = await collectors.run(pending, run);
  for (const work of pending) await work();
  return result;
}
