// A production build for the e2e server: `npm run build` when .next/BUILD_ID is missing or older
// than any source the build reads, so a run never tests yesterday's pages.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { exclusively } from './exclusively';
import { newestMtime } from './newest-mtime';

const SOURCES = ['app', 'lib', 'contracts/out', 'next.config.ts', 'package.json', 'package-lock.json', 'tsconfig.json'];

/** Runs the build alone: suites started side by side (e2e, the SDK's) wait for one another's build. */
export function ensureFreshBuild(): Promise<void> {
  return exclusively('.next-build.lock', 15 * 60_000, buildIfStale);
}

function buildIfStale(): void {
  const buildId = join('.next', 'BUILD_ID');
  const builtAt = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const changedAt = Math.max(...SOURCES.map(newestMtime));
  // E2E_SKIP_BUILD=1 reuses whatever build exists (quick reruns while only tests change).
  if (builtAt > 0 && process.env.E2E_SKIP_BUILD === '1') return;
  if (builtAt > changedAt && process.env.E2E_FORCE_BUILD !== '1') return;
  console.log(
    builtAt === 0
      ? 'e2e: no production build yet, building…'
      : 'e2e: sources changed since the last build, rebuilding…',
  );
  const built = spawnSync('npm', ['run', 'build'], {
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (built.status !== 0) throw new Error('npm run build failed');
}
