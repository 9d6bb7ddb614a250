// The committed artifacts (contracts/out/**, lib/chain/artifacts.ts) match a fresh compile of contracts/.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { compileContracts, REPO_ROOT, renderArtifactFiles } from '@/contracts/compiler';

const STALE = 'stale: run `npm run contracts:compile` and commit contracts/out and lib/chain/artifacts.ts';

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [relative(REPO_ROOT, join(dir, entry.name))],
  );
}

test('committed artifacts equal a fresh compile, with no compiler warnings', () => {
  const warnings: string[] = [];
  const fresh = renderArtifactFiles(compileContracts((warning) => warnings.push(warning)));
  expect(warnings).toEqual([]);
  for (const [path, text] of Object.entries(fresh)) {
    const committed = existsSync(join(REPO_ROOT, path)) ? readFileSync(join(REPO_ROOT, path), 'utf8') : '(missing)';
    // Compare as booleans first so a mismatch prints the instruction, not 50 kB of bytecode.
    expect(committed === text, `${path} is ${STALE}`).toBe(true);
  }
  const expected = Object.keys(fresh)
    .filter((path) => path.startsWith('contracts/out/'))
    .sort();
  expect(filesUnder(join(REPO_ROOT, 'contracts/out')).sort(), `contracts/out is ${STALE}`).toEqual(expected);
});
