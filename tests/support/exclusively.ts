// One holder at a time across processes (test workers, suites started side by side): a directory
// made atomically is the lock. Builds use it, so no build rewrites files another process is reading.
import { mkdirSync, rmSync, statSync } from 'node:fs';

/** Runs `work` while holding `lock`; a lock older than `staleAfterMs` is taken to be a crashed run's. */
export async function exclusively<T>(lock: string, staleAfterMs: number, work: () => T | Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > staleAfterMs) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
