// Production builds of the app for benchmarks: the app as it is, plus throw-away route handlers
// (app/api/bench-*/…) and, for a library-or-hand-written comparison, modules temporarily rewritten.
// Each build goes to its own distDir under .next-bench/, so `.next` and the other builds stay as
// they are; every source written is restored or removed before this returns, even on failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface BenchBuild {
  /** The build's distDir is .next-bench/<name>. */
  name: string;
  /**
   * Files to add under app/api/ (in a folder starting with `bench-`): a route's folder → its route.ts, or a path ending
   * in .ts → that file.
   */
  routes?: Record<string, string>;
  /**
   * Modules to rewrite (or add) for this build: a repository path → its new text, from the current one ('' for a new
   * file).
   */
  rewrites?: Record<string, (source: string) => string>;
}

export const distDirOf = (name: string) => join('.next-bench', name);

/** Replaces `from` by `to` in `source`, and fails loudly when `from` is not there (a stale rewrite). */
export function replaceOnce(source: string, from: string, to: string): string {
  if (!source.includes(from)) throw new Error(`rewrite: text not found: ${from.slice(0, 80)}`);
  return source.replace(from, () => to);
}

/** next.config.ts for a build whose server code keeps its names, so a CPU profile names our functions. */
export const unminifiedConfig = (config: string) =>
  replaceOnce(
    config,
    'poweredByHeader: false,',
    'poweredByHeader: false, experimental: { serverMinification: false },',
  );

// next build adds its distDir's types to tsconfig.json and rewrites next-env.d.ts: put both back.
const TOUCHED_BY_NEXT = ['tsconfig.json', 'next-env.d.ts'];

/** Builds the app into .next-bench/<name> (skipped when BENCH_REUSE_BUILD=1 and it exists); its distDir. */
export function buildBenchApp(build: BenchBuild): string {
  const distDir = distDirOf(build.name);
  if (process.env.BENCH_REUSE_BUILD === '1' && existsSync(join(distDir, 'BUILD_ID'))) return distDir;
  const originals = new Map<string, string | undefined>();
  const remember = (path: string) => {
    if (!originals.has(path)) originals.set(path, existsSync(path) ? readFileSync(path, 'utf8') : undefined);
  };
  const routeDirs = new Set<string>();
  try {
    for (const path of TOUCHED_BY_NEXT) remember(path);
    for (const [path, rewrite] of Object.entries(build.rewrites ?? {})) {
      remember(path);
      writeFileSync(path, rewrite(originals.get(path) ?? ''));
    }
    for (const [path, source] of Object.entries(build.routes ?? {})) {
      const top = path.split('/')[0]!;
      if (!top.startsWith('bench-')) throw new Error(`bench routes live under app/api/bench-*: ${path}`);
      routeDirs.add(join('app', 'api', top));
      const file = path.endsWith('.ts') ? join('app', 'api', path) : join('app', 'api', path, 'route.ts');
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${source}\n`);
    }
    nextBuild(distDir);
    return distDir;
  } finally {
    for (const dir of routeDirs) rmSync(dir, { recursive: true, force: true });
    for (const [path, text] of originals) {
      if (text === undefined) rmSync(path, { force: true });
      else writeFileSync(path, text);
    }
  }
}

/** `next build` of the checkout in `cwd` (this one by default) into `distDir`, relative to it; `env` adds settings. */
export function nextBuild(distDir: string, { cwd, env }: { cwd?: string; env?: Record<string, string> } = {}): void {
  console.error(`building ${distDir}${cwd ? ` in ${cwd}` : ''} …`);
  const built = spawnSync('npx', ['next', 'build'], {
    cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_DIST_DIR: distDir, ...env },
  });
  if (built.status !== 0) throw new Error(`next build of ${distDir} failed`);
}
