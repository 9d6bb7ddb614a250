// Loaded into each soak instance with NODE_OPTIONS=--import: every 5 s it writes the process's
// memory (process.memoryUsage) to SOAK_PROBE_DIR/<pid>.json, for the soak to read. Measurement only.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.SOAK_PROBE_DIR;
if (dir) {
  const write = () => {
    const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
    try {
      writeFileSync(
        join(dir, `${process.pid}.json`),
        JSON.stringify({ at: Date.now(), rss, heapUsed, heapTotal, external }),
      );
    } catch {
      // The soak removed its directory: nothing left to report to.
    }
  };
  write();
  setInterval(write, 5_000).unref();
}
