// `npm run contracts:compile`: compiles the contracts and rewrites contracts/out/ and
// lib/chain/artifacts.ts. The artifacts test fails when these are stale.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { compileContracts, REPO_ROOT, renderArtifactFiles } from './compiler';

const started = performance.now();
const files = renderArtifactFiles(compileContracts());
// Start from an empty out/ so a deleted contract leaves no artifact behind.
rmSync(join(REPO_ROOT, 'contracts/out'), { recursive: true, force: true });
for (const [path, text] of Object.entries(files)) {
  mkdirSync(dirname(join(REPO_ROOT, path)), { recursive: true });
  writeFileSync(join(REPO_ROOT, path), text);
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`compiled ${Object.keys(files).length} artifacts in ${seconds}s:\n  ${Object.keys(files).join('\n  ')}`);
