// `npm run contracts:compile`: compiles the contracts and rewrites contracts/out/,
// lib/chain/artifacts.ts (ABI and bytecode, to deploy) and lib/chain/abis.ts (the ABIs alone, for the
// browser). The artifacts test fails when these are stale. Only files whose text
// changed are written, each atomically (a temporary file renamed over it), so a reader — a test
// run, a dev server — never sees a half-written artifact; a deleted contract's artifact is removed.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { compileContracts, REPO_ROOT, renderArtifactFiles } from './compiler';

const started = performance.now();
const files = renderArtifactFiles(compileContracts());
let written = 0;
for (const [path, text] of Object.entries(files)) {
  const target = join(REPO_ROOT, path);
  if (existsSync(target) && readFileSync(target, 'utf8') === text) continue;
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(`${target}.tmp`, text);
  renameSync(`${target}.tmp`, target);
  written += 1;
}
const out = join(REPO_ROOT, 'contracts/out');
for (const file of readdirSync(out, { recursive: true }) as string[]) {
  const path = relative(REPO_ROOT, join(out, file));
  if (path.endsWith('.json') && !(path in files)) rmSync(join(REPO_ROOT, path));
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `compiled ${Object.keys(files).length} artifacts in ${seconds}s (${written} changed):\n  ` +
    Object.keys(files).join('\n  '),
);
