// Once per fault run: the suite runs the production build and builds nothing itself — except once,
// when there is no build at all (a fresh clone). A build older than the sources is reported, as
// the instances would run yesterday's code.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['app', 'lib', 'server.ts', 'next.config.ts', 'package-lock.json'];

function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestChange(join(path, entry))));
}

export default function setup() {
  const buildId = join(process.cwd(), '.next', 'BUILD_ID');
  if (!existsSync(buildId)) {
    console.log('test:faults: no production build (.next/BUILD_ID) — running `npm run build` once');
    execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
    return;
  }
  const built = statSync(buildId).mtimeMs;
  if (SOURCES.some((source) => newestChange(join(process.cwd(), source)) > built)) {
    console.warn('test:faults: .next is older than the sources — run `npm run build` to test the current code');
  }
}
