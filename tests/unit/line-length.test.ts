// No line over 120 characters in hand-written code (docs/contributing.md#naming-and-comments): Biome wraps
// code at 120 but never strings, template literals, comments or test names, so this check catches those.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

const LIMIT = 120;
const SOURCE = /\.(ts|tsx|js|mjs|css)$/;
// Not written by hand: generated SDK types, compiled contracts (and their ABIs), vendored ERC-8004, drizzle's
// migrations.
const GENERATED =
  /^(sdk\/src\/generated\/|contracts\/out\/|contracts\/erc8004\/|drizzle\/|lib\/chain\/(artifacts|abis)\.ts$)/;

const files = execFileSync('git', ['ls-files', '-z'], { encoding: 'utf8' })
  .split('\0')
  .filter((file) => SOURCE.test(file) && !GENERATED.test(file));

/** `file:line (length)` for each line over the limit; none for a file deleted in the working tree. */
function longLines(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').flatMap((line, i) => (line.length > LIMIT ? [`${file}:${i + 1} (${line.length})`] : []));
}

describe('line length', () => {
  test('behavior: every folder of hand-written code is checked, generated code is not', () => {
    for (const file of ['app/layout.tsx', 'lib/config.ts', 'sdk/src/client.ts', 'scripts/db-migrate.ts']) {
      expect(files).toContain(file);
    }
    expect(files.some((file) => file.startsWith('tests/unit/'))).toBe(true);
    expect(files.filter((file) => GENERATED.test(file))).toEqual([]);
    expect(files).not.toContain('lib/chain/artifacts.ts');
  });

  test(`behavior: no line of a hand-written source is over ${LIMIT} characters`, () => {
    expect(files.flatMap(longLines)).toEqual([]);
  });
});
