// The committed artifacts (contracts/out/**, lib/chain/artifacts.ts and the ABIs alone, lib/chain/abis.ts) match a
// fresh compile of contracts/, and the browser's modules import the ABIs, never the bytecode.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { compileContracts, REPO_ROOT, renderArtifactFiles } from '@/contracts/compiler';

const STALE =
  'stale: run `npm run contracts:compile` and commit contracts/out, lib/chain/abis.ts and lib/chain/artifacts.ts';

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

/** A module's file for an import of it, or undefined for a package. */
function resolved(from: string, spec: string): string | undefined {
  const base = spec.startsWith('@/') ? spec.slice(2) : spec.startsWith('.') ? join(dirname(from), spec) : undefined;
  if (base === undefined) return undefined;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find((path) => existsSync(join(REPO_ROOT, path)) && statSync(join(REPO_ROOT, path)).isFile());
}

test('behavior: what the browser loads ("use client" modules, lib/web/) reaches the ABIs, never the bytecode', () => {
  const sources = [...filesUnder(join(REPO_ROOT, 'app')), ...filesUnder(join(REPO_ROOT, 'lib'))].filter((f) =>
    /\.tsx?$/.test(f),
  );
  const entries = sources.filter(
    (f) => f.startsWith('lib/web/') || /^\s*['"]use client['"]/.test(readFileSync(join(REPO_ROOT, f), 'utf8')),
  );
  expect(entries).toContain('lib/web/escrow.ts');
  // Every module they import, however deep; type-only imports are erased, so they load nothing.
  const reached = new Map<string, string>(entries.map((f) => [f, f]));
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    const text = readFileSync(join(REPO_ROOT, file), 'utf8');
    for (const [, spec] of text.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^;']*?\sfrom\s+)?'([^']+)'/gm)) {
      const target = resolved(file, spec!);
      if (target && !reached.has(target)) {
        reached.set(target, reached.get(file)!);
        queue.push(target);
      }
    }
  }
  expect(reached.has('lib/chain/abis.ts')).toBe(true);
  const bytecode = reached.has('lib/chain/artifacts.ts') ? [`via ${reached.get('lib/chain/artifacts.ts')}`] : [];
  expect(bytecode, 'lib/chain/artifacts.ts (bytecode) in the browser bundle').toEqual([]);
});
