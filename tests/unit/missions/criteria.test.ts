// docs/api.md#criteria: the canonical JSON of a mission's criteria, its keccak256, and the list rules.
import { describe, expect, test } from 'vitest';
import {
  canonicalCriteria,
  criteriaHash,
  criteriaSchema,
  criteriaTextsSchema,
  selfCheckSchema,
  splitCriteria,
  unknownCriteria,
  unmetSchema,
  verdictsSchema,
} from '@/lib/missions/criteria';

describe('canonical criteria', () => {
  test(
    'default: a JSON array of the texts, no whitespace, only " and \\ escaped, other ' + 'characters as themselves',
    () => {
      expect(canonicalCriteria(['a', 'b"c', 'd\\e', 'Délai — ✓ 😀'])).toBe('["a","b\\"c","d\\\\e","Délai — ✓ 😀"]');
    },
  );

  test('default: the hash is keccak256 of the UTF-8 bytes, as a third party computes it', () => {
    // Computed with @noble/hashes keccak_256 over the text '["Every product has a box","Exported as COCO JSON"]'.
    expect(criteriaHash(['Every product has a box', 'Exported as COCO JSON'])).toBe(
      '0xd88ac520853e70fd5d2d518123981818f6f668b7f071fdc62119fdf5ab039aec',
    );
    expect(criteriaHash(['b', 'a'])).not.toBe(criteriaHash(['a', 'b']));
  });

  test('default: criteria are trimmed before they are hashed', () => {
    const parsed = criteriaTextsSchema.parse(['  Every product has a box ', '\tExported as COCO JSON']);
    expect(criteriaHash(parsed)).toBe(criteriaHash(['Every product has a box', 'Exported as COCO JSON']));
  });
});

describe('checked criteria (docs/api.md#checked-criteria)', () => {
  const sha = { type: 'sha256', file: 'a.txt', digest: 'a'.repeat(64) } as const;

  test('default: texts and checks split in order; without a check the hash is the texts’ as before', () => {
    const list = criteriaSchema.parse(['Plain', { text: 'Checked', check: sha }, { text: 'No check' }]);
    expect(splitCriteria(list)).toEqual({ texts: ['Plain', 'Checked', 'No check'], checks: [null, sha, null] });
    expect(splitCriteria(criteriaSchema.parse(['a', { text: 'b' }]))).toEqual({ texts: ['a', 'b'], checks: null });
    expect(criteriaHash(['a', 'b'], null)).toBe(criteriaHash(['a', 'b']));
  });

  test('default: a checked criterion hashes as {"check","text"} with every key sorted', () => {
    const schema = { type: 'object', required: ['b', 'a'] };
    expect(canonicalCriteria(['x', 'y'], [null, { type: 'jsonSchema', file: 'r.json', schema }])).toBe(
      '["x",{"check":{"file":"r.json","schema":{"required":["b","a"],"type":"object"},' +
        '"type":"jsonSchema"},"text":"y"}]',
    );
    // The same check written with its keys in another order is the same terms.
    const reordered = { schema: { required: ['b', 'a'], type: 'object' }, file: 'r.json', type: 'jsonSchema' } as const;
    expect(criteriaHash(['x', 'y'], [null, reordered])).toBe(
      criteriaHash(['x', 'y'], [null, { type: 'jsonSchema', file: 'r.json', schema }]),
    );
    expect(criteriaHash(['x', 'y'], [null, sha])).not.toBe(criteriaHash(['x', 'y']));
  });

  test('error: the checks together are at most 16 KB (the board shows them on every listing)', () => {
    const big = (n: number) => ({
      text: `c${n}`,
      check: { type: 'jsonSchema', file: 'a.json', schema: { description: 'x'.repeat(9_000) } },
    });
    expect(criteriaSchema.safeParse([big(1)]).success).toBe(true);
    const both = criteriaSchema.safeParse([big(1), big(2)]);
    expect(both.success).toBe(false);
    expect(both.error?.issues[0]?.message).toMatch(/at most 16 KB/);
  });

  test('error: an unknown check type, a bad digest or an extra field is refused', () => {
    expect(criteriaSchema.safeParse([{ text: 'a', check: { type: 'ftp', url: 'x' } }]).success).toBe(false);
    expect(criteriaSchema.safeParse([{ text: 'a', check: { ...sha, digest: 'ABC' } }]).success).toBe(false);
    expect(criteriaSchema.safeParse([{ text: 'a', check: { ...sha, extra: 1 } }]).success).toBe(false);
  });
});

describe('lists naming criteria', () => {
  test('error: each criterion at most once, numbered from 1', () => {
    expect(
      selfCheckSchema.safeParse([
        { criterion: 1, met: true },
        { criterion: 1, met: false },
      ]).success,
    ).toBe(false);
    expect(
      unmetSchema.safeParse([
        { criterion: 2, reason: 'a' },
        { criterion: 2, reason: 'b' },
      ]).success,
    ).toBe(false);
    expect(verdictsSchema.safeParse([{ criterion: 0, met: true }]).success).toBe(false);
    expect(unmetSchema.safeParse([]).success).toBe(false);
    expect(selfCheckSchema.safeParse([]).success).toBe(true);
  });

  test("error: a number past the mission's criteria, or any on a mission without them", () => {
    expect(unknownCriteria('unmet', [{ criterion: 2 }], ['a', 'b'])).toEqual([]);
    expect(unknownCriteria('unmet', [{ criterion: 3 }], ['a', 'b'])).toEqual([
      'unmet.0.criterion: the mission has no criterion 3 (it has 2)',
    ]);
    expect(unknownCriteria('selfCheck', [{ criterion: 1 }], null)).toEqual(['selfCheck: the mission has no criteria']);
    expect(unknownCriteria('selfCheck', [], null)).toEqual([]);
  });
});
