// docs/api.md#criteria: the canonical JSON of a mission's criteria, its keccak256, and the list rules.
import { describe, expect, test } from 'vitest';
import {
  canonicalCriteria,
  criteriaHash,
  criteriaSchema,
  selfCheckSchema,
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
    const parsed = criteriaSchema.parse(['  Every product has a box ', '\tExported as COCO JSON']);
    expect(criteriaHash(parsed)).toBe(criteriaHash(['Every product has a box', 'Exported as COCO JSON']));
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
