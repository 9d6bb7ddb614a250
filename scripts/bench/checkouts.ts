// The two sides of `npm run bench:builds`: the app at a git ref, or the working tree (HEAD plus
// uncommitted changes), each with a plain `next build` of its own.
//
// A ref is checked out with `git worktree add --detach` into a folder of the system's temporary
// directory, outside this checkout: inside it, Next.js found this checkout's proxy.ts for a ref that
// has none. Its node_modules is a hard-linked copy of this checkout's (no space, and Turbopack
// compiles nothing behind a symlink out of its root) — so every runtime package of its lock must be
// here at the same version (a package added since, or a dev-only one changed, is fine) — with the
// ref's own SDK built into it. Its build lives in the worktree and goes with it. The working tree
// builds into .next-bench/working-tree (BENCH_REUSE_BUILD=1 reuses that).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { buildBenchApp, distDirOf, nextBuild, unminifiedConfig } from './app-build';

export interface Checkout {
  /** What it is, for the report: the ref and its commit, or the working tree. */
  label: string;
  /** Where its instance starts (server.ts, drizzle/). */
  cwd: string;
  /** The settings its instance needs to find its build. */
  env: Record<string, string>;
  /** The migrations it knows (file names in drizzle/). */
  migrations: string[];
  /** Builds it, unless the build can be reused. */
  build(): void;
  /** Removes its worktree, if it has one. */
  remove(): void;
}

const git = (...args: string[]) =>
  execFileSync('git', args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  }).trim();
const sqlFiles = (paths: string[]) => paths.filter((path) => path.endsWith('.sql')).map((path) => basename(path));

export const treeOf = (ref: string) => git('rev-parse', '--verify', `${ref}^{tree}`);

// With BENCH_PROFILE both sides are built with their names kept, so their profiles can be compared
// function by function (scripts/bench/profile-diff.ts).
const profiled = () => Boolean(process.env.BENCH_PROFILE);

export function workingTree(): Checkout {
  const dirty = git('status', '--porcelain') !== '';
  const name = profiled() ? 'working-tree-profile' : 'working-tree';
  return {
    label: `the working tree (${git('rev-parse', '--short', 'HEAD')}${dirty ? ' + uncommitted changes' : ''})`,
    cwd: process.cwd(),
    env: { NEXT_DIST_DIR: distDirOf(name) },
    migrations: sqlFiles(readdirSync('drizzle')),
    build: () => void buildBenchApp({ name, ...(profiled() && { rewrites: { 'next.config.ts': unminifiedConfig } }) }),
    remove: () => {},
  };
}

/** The ref checked out in a worktree of its own (removed by `remove()`); fails when its dependencies differ. */
export function atRef(ref: string): Checkout {
  const commit = git('rev-parse', '--verify', `${ref}^{commit}`);
  const changed = changedRuntimePackages(
    git('show', `${commit}:package-lock.json`),
    readFileSync('package-lock.json', 'utf8'),
  );
  if (changed.length > 0) {
    throw new Error(
      `${ref}'s runtime dependencies differ from this checkout's (` +
        `${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ', …' : ''}): ` +
        `its build would run on packages it was not written for (node_modules is this ` +
        `checkout's). Pick a later ref (git log --oneline -- package-lock.json).`,
    );
  }
  const tree = treeOf(commit).slice(0, 12);
  const cwd = join(tmpdir(), `taskmarket-ref-${tree}`);
  const distDir = '.next-bench-build';
  const env = { NEXT_DIST_DIR: distDir };
  // A worktree left by a run that was killed: nothing in it is kept, and --force takes its place.
  rmSync(cwd, { recursive: true, force: true });
  git('worktree', 'prune');
  git('worktree', 'add', '--force', '--detach', cwd, commit);
  execFileSync('cp', ['-al', resolve('node_modules'), join(cwd, 'node_modules')]);
  return {
    label: commit.startsWith(ref) ? commit.slice(0, 7) : `${ref} (${commit.slice(0, 7)})`,
    cwd,
    env,
    migrations: sqlFiles(git('ls-tree', '--name-only', commit, 'drizzle/').split('\n')),
    build() {
      // node_modules/@taskmarket/sdk links to the worktree's sdk/, whose dist/ git does not hold.
      execFileSync('npm', ['run', 'build', '-w', '@taskmarket/sdk'], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
      // The worktree is thrown away afterwards, so its config is rewritten in place.
      const config = join(cwd, 'next.config.ts');
      if (profiled()) writeFileSync(config, unminifiedConfig(readFileSync(config, 'utf8')));
      nextBuild(distDir, { cwd, env });
    },
    remove: () => git('worktree', 'remove', '--force', cwd),
  };
}

type Lock = { packages: Record<string, { version?: string; dev?: boolean }> };

/** The packages the old lock installs for running (not dev-only) that are missing here or at another version. */
export function changedRuntimePackages(oldLock: string, currentLock: string): string[] {
  const before = (JSON.parse(oldLock) as Lock).packages;
  const now = (JSON.parse(currentLock) as Lock).packages;
  return Object.entries(before)
    .filter(([path, entry]) => path.startsWith('node_modules/') && !entry.dev && now[path]?.version !== entry.version)
    .map(([path, entry]) => `${path.slice('node_modules/'.length)}@${entry.version}`);
}
