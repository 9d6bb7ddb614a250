import { describe, expect, test } from 'vitest';
import { safeNext } from '@/lib/web/safe-next';

describe('safeNext', () => {
  test.each([
    ['/%09/evil.com as the page receives it', '/\t/evil.com'],
    ['a tab and a backslash', '/\t\\evil.com'],
    ['protocol-relative', '//evil.com'],
    ['backslash-relative', '/\\evil.com'],
    ['an absolute URL', 'https://evil.com'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path', 'missions'],
    ['a newline before the host', '/\n/evil.com'],
    ['the sign-in page itself', '/sign-in?next=/x'],
    ['nothing', undefined],
  ])('error: %s goes to /missions', (_name, value) => {
    expect(safeNext(value)).toBe('/missions');
  });

  test('default: a path of this site is followed, with its query and fragment', () => {
    expect(safeNext('/missions/abc?tab=work#files')).toBe('/missions/abc?tab=work#files');
    expect(safeNext(['/earnings', '//evil.com'])).toBe('/earnings');
  });

  test('behavior: dot segments resolve inside the site', () => {
    expect(safeNext('/a/../earnings')).toBe('/earnings');
  });
});
