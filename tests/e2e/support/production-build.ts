// A production build for the e2e server: `npm run build` when .next/BUILD_ID is missing or older
// than any source the build reads, so a run never tests yesterday's pages.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['app', 'lib', 'contracts/out', 'next.config.ts', 'package.json', 'package-lock.json', 'tsconfig.json'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

const LOCK = '.next-build.lock';

/** Runs `build` alone: suites started side by side (e2e, the SDK's) wait for one another's build. */
async function underBuildLock(build: () => void): Promise<void> {
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // A lock older than the slowest build is a crashed run's.
      const held = statSync(LOCK, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > 15 * 60_000) rmdirSync(LOCK);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    build();
  } finally {
    rmdirSync(LOCK);
  }
}

export function ensureFreshBuild(): Promise<void> {
  return underBuildLock(buildIfStale);
}

function buildIfStale(): void {
  const buildId = join('.next', 'BUILD_ID');
  const builtAt = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  const changedAt = Math.max(...SOURCES.map(newestMtime));
  // E2E_SKIP_BUILD=1 reuses whatever build exists (quick reruns while only tests change).
  if (builtAt > 0 && process.env.E2E_SKIP_BUILD === '1') return;
  if (builtAt > changedAt && process.env.E2E_FORCE_BUILD !== '1') return;
  console.log(builtAt === 0 ? 'e2e: no production build yet, building…' : 'e2e: sources changed since the last build, rebuilding…');
  const built = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (built.status !== 0) throw new Error('npm run build failed');
}
