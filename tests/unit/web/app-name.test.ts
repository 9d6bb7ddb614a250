// docs/api.md#confirmation-terms: the name a confirmation card gives whoever asked. An OAuth app's name is its own
// claim, and "taskmarket" is ours: no disguise of it gets shown as the asker's name.
import { describe, expect, test } from 'vitest';
import { appNameOf } from '@/lib/web/app-name';

describe('appNameOf', () => {
  test.each([
    ['the plain name', 'taskmarket'],
    ['another case', 'TaskMarket'],
    ['spaced and punctuated', 'Task-Market  Official'],
    ['inside other words', 'The official taskmarket assistant'],
    ['full-width letters (NFKC)', 'ｔａｓｋｍａｒｋｅｔ'],
    ['dotted', 't.a.s.k.m.a.r.k.e.t'],
  ])('security: an app that calls itself %s is shown as "An app", marked reserved', (_what, name) => {
    expect(appNameOf({ kind: 'oauth', name })).toEqual({ name: 'An app', reserved: true });
  });

  test('default: any other app is shown by its own name, not reserved', () => {
    expect(appNameOf({ kind: 'oauth', name: 'Claude' })).toEqual({ name: 'Claude', reserved: false });
    expect(appNameOf({ kind: 'oauth', name: 'Market tasks' })).toEqual({ name: 'Market tasks', reserved: false });
  });

  test('behavior: a personal token keeps the name the person gave it, whatever it is', () => {
    expect(appNameOf({ kind: 'token', name: 'my taskmarket script' })).toEqual({
      name: 'my taskmarket script',
      reserved: false,
    });
  });
});
