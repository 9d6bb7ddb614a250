// Every citation of a docs page's anchor (`docs/api.md#sign-in` in a comment, `[x](api.md#limits)` in a
// page) names a heading or an `<a id>` that exists, and nothing cites the contract by a file a clone
// cannot see (`API.md §N`): docs/contributing.md#naming-and-comments.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, test } from 'vitest';

const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.(ts|tsx|mjs|md|sol|grit)$/.test(f) || f === '.ci/run')
  .filter((f) => !f.startsWith('sdk/src/generated/') && f !== 'lib/chain/artifacts.ts' && existsSync(f));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2. */
function anchorsOf(page: string): Set<string> {
  const text = readFileSync(page, 'utf8');
  const anchors = new Set<string>([...text.matchAll(/<a id="([^"]+)"/g)].map(([, id]) => id!));
  const seen = new Map<string, number>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .replace(/<[^>]+>/g, '')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
    seen.set(slug, n + 1);
  }
  return anchors;
}

describe('docs links', () => {
  test('behavior: every cited docs anchor exists', () => {
    const cache = new Map<string, Set<string>>();
    const broken = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/([\w./-]*\.md)#([\w-]+)/g)].flatMap(([cited, page, anchor]) => {
        const candidates = [normalize(join(dirname(file), page!)), normalize(page!)];
        const target = candidates.find((c) => existsSync(c));
        if (!target) return [];
        if (!cache.has(target)) cache.set(target, anchorsOf(target));
        return cache.get(target)!.has(anchor!) ? [] : [`${file}: ${cited}`];
      }),
    );
    expect(broken).toEqual([]);
  });

  // The sources of escrows already deployed (v2, v3) stay byte for byte what was deployed: a changed
  // comment is a new metadata hash, so new bytecode and a source that no longer verifies on-chain.
  const DEPLOYED = ['contracts/TaskEscrow.sol', 'contracts/TaskEscrowV3.sol'];

  test('error: no citation of API.md or its sections, which live outside the repository', () => {
    const cited = files
      // This file names what it looks for.
      .filter((file) => !DEPLOYED.includes(file) && file !== 'tests/unit/docs-links.test.ts')
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, i) =>
            /\bAPI\.md\b|shared\/API|^\s*(\/\/|\*|#)\s*§\d|\(§\d+(\.\d+)*\)/.test(line) ? [`${file}:${i + 1}`] : [],
          ),
      );
    expect(cited).toEqual([]);
  });
});
