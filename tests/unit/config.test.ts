import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '@/lib/config';

const strong = 'x'.repeat(32);
const production = { NODE_ENV: 'production', BASE_CHAIN_ID: '8453', SIWE_DOMAIN: 'app.example.com', JWT_SECRET: strong, SESSION_SECRET: strong, REDIS_URL: 'redis://127.0.0.1:6379' };

describe('loadConfig', () => {
  test('default: production with every required setting starts', () => {
    const cfg = loadConfig(production);
    expect(cfg.chainId).toBe(8453);
    expect(cfg.siweDomains).toEqual(['app.example.com']);
    expect(cfg.nonces).toEqual({ maxLive: 100_000, ttlSeconds: 300, perMinute: 60 });
  });

  test.each([
    ['JWT_SECRET', { JWT_SECRET: undefined }, /JWT_SECRET is required/],
    ['SESSION_SECRET', { SESSION_SECRET: undefined }, /SESSION_SECRET is required/],
    ['a weak JWT_SECRET', { JWT_SECRET: 'short' }, /JWT_SECRET must be at least 32 bytes/],
    ['BASE_CHAIN_ID', { BASE_CHAIN_ID: undefined }, /BASE_CHAIN_ID is required/],
    ['SIWE_DOMAIN', { SIWE_DOMAIN: undefined }, /SIWE_DOMAIN is required/],
  ])('error: production without %s stops with a message naming it', (_name, change, message) => {
    expect(() => loadConfig({ ...production, ...change })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, ...change })).toThrow(message);
  });

  test('error: malformed values name the setting', () => {
    expect(() => loadConfig({ ...production, REGISTRAR_PRIVATE_KEY: '0x12' })).toThrow(/REGISTRAR_PRIVATE_KEY/);
    expect(() => loadConfig({ ...production, PLATFORM_FEE_BPS: '20000' })).toThrow(/PLATFORM_FEE_BPS/);
  });

  test('behavior: SIWE_DOMAIN is a trimmed, lowercased list', () => {
    expect(loadConfig({ ...production, SIWE_DOMAIN: 'App.example.com, localhost:3000 ,' }).siweDomains).toEqual([
      'app.example.com',
      'localhost:3000',
    ]);
  });
});
