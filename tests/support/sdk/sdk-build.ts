// The SDK as an installed package runs: `npm run build -w @taskmarket/sdk` into sdk/dist, once
// across the suites' workers and only when sdk/ changed since the last build — a build rewrites
// sdk/dist under a CLI another worker may be starting.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exclusively } from '../exclusively';
import { newestMtime } from '../newest-mtime';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SDK = join(ROOT, 'sdk');
const CLI = join(SDK, 'dist', 'cli.js');
const LOCK = join(tmpdir(), `taskmarket-sdk-build-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}`);
const STAMP = `${LOCK}.stamp`;

const sdkIsFresh = () =>
  existsSync(CLI) &&
  newestMtime(STAMP) >
    Math.max(
      ...['src', 'bin', 'package.json', 'tsconfig.json', 'tsconfig.build.json'].map((p) => newestMtime(join(SDK, p))),
    );

export function buildSdk(): Promise<void> {
  return exclusively(LOCK, 5 * 60_000, () => {
    if (sdkIsFresh()) return;
    const startedAt = new Date();
    const built = spawnSync('npm', ['run', 'build', '-w', '@taskmarket/sdk'], { cwd: ROOT, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`SDK build failed:\n${built.stdout}\n${built.stderr}`);
    // Stamped with the start: a source saved during the build makes the next run build again.
    writeFileSync(STAMP, '');
    utimesSync(STAMP, startedAt, startedAt);
  });
}
