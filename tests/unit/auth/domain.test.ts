import { describe, expect, test } from 'vitest';
import { isAllowedDomain, parseAuthority } from '@/lib/auth/domain';

const entries = ['app.example.com', 'localhost:3000'];

describe('isAllowedDomain', () => {
  test.each([
    ['app.example.com', true],
    ['APP.Example.com', true],
    ['pr-12.app.example.com', true],
    ['a.b.app.example.com', true],
    ['app.example.com:8443', true],
    ['localhost:3000', true],
  ])('behavior: admits %s', (domain, expected) => {
    expect(isAllowedDomain(domain, entries)).toBe(expected);
  });

  test.each([
    'evilapp.example.com',
    'app.example.com.evil.io',
    'example.com',
    'localhost',
    'localhost:3001',
    'sub.localhost:3001',
    'user@app.example.com',
    'app.example.com/path',
    'app..example.com',
    '.app.example.com',
    '',
    'app.example.com:',
    'app.example.com:99999999',
  ])('error: refuses %j', (domain) => {
    expect(isAllowedDomain(domain, entries)).toBe(false);
  });

  test('behavior: an entry with a port requires that port of subdomains too', () => {
    expect(isAllowedDomain('pr-1.localhost:3000', entries)).toBe(true);
    expect(isAllowedDomain('pr-1.localhost:4000', entries)).toBe(false);
  });

  test('behavior: the default port stands in for a missing one', () => {
    expect(isAllowedDomain('shop.io', ['shop.io:443'], '443')).toBe(true);
    expect(isAllowedDomain('shop.io', ['shop.io:443'], '80')).toBe(false);
  });

  test('behavior: IP entries match exactly, never as a suffix', () => {
    expect(isAllowedDomain('127.0.0.1:3000', ['127.0.0.1:3000'])).toBe(true);
    expect(isAllowedDomain('1.127.0.0.1:3000', ['127.0.0.1:3000'])).toBe(false);
    expect(isAllowedDomain('[::1]:3000', ['[::1]:3000'])).toBe(true);
  });
});

describe('parseAuthority', () => {
  test('default: splits host and port', () => {
    expect(parseAuthority('Example.com:80')).toEqual({ host: 'example.com', port: '80' });
    expect(parseAuthority('example.com')).toEqual({ host: 'example.com', port: undefined });
  });
  test('error: refuses userinfo and paths', () => {
    expect(parseAuthority('a@b.com')).toBeUndefined();
    expect(parseAuthority('b.com/x')).toBeUndefined();
  });
});
