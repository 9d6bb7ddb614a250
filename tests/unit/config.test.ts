import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '@/lib/config';

const strong = 'x'.repeat(32);
const production = {
  NODE_ENV: 'production',
  BASE_CHAIN_ID: '8453',
  SIWE_DOMAIN: 'app.example.com',
  JWT_SECRET: strong,
  SESSION_SECRET: strong,
  REDIS_URL: 'redis://127.0.0.1:6379',
};

describe('loadConfig', () => {
  test('default: production with every required setting starts', () => {
    const cfg = loadConfig(production);
    expect(cfg.chainId).toBe(8453);
    expect(cfg.siweDomains).toEqual(['app.example.com']);
    expect(cfg.nonces).toEqual({ maxLive: 100_000, ttlSeconds: 300, perMinute: 60 });
  });

  test(
    'default: feedback needs 1 USDC and has 100 transactions an hour; unfunded missions hold 50 MiB ' +
      'of attachments a poster, 5 GiB in all',
    () => {
      const cfg = loadConfig(production);
      expect(cfg.chain).toMatchObject({ minFeedbackReward: 1_000_000n, feedbackBudgetPerHour: 100 });
      expect(cfg.missions).toMatchObject({
        unfundedFilesMaxBytesPerUser: 50 * 1024 * 1024,
        unfundedFilesMaxBytes: 5 * 1024 * 1024 * 1024,
      });
      expect(loadConfig({ ...production, ERC8004_MIN_FEEDBACK_REWARD: '0' }).chain.minFeedbackReward).toBe(0n);
      expect(() => loadConfig({ ...production, ERC8004_MIN_FEEDBACK_REWARD: '1.5' })).toThrow(
        /ERC8004_MIN_FEEDBACK_REWARD/,
      );
    },
  );

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

describe('wave-2 settings (docs/api.md#limits, #vercel)', () => {
  test('error: SINGLE_INSTANCE=0 is not a yes — production still needs a shared KV', () => {
    expect(() => loadConfig({ ...production, REDIS_URL: undefined, SINGLE_INSTANCE: '0' })).toThrow(
      /REDIS_URL or KV_REST_API_URL/,
    );
    expect(loadConfig({ ...production, REDIS_URL: undefined, SINGLE_INSTANCE: 'true' }).singleInstance).toBe(true);
  });

  test('default: APP_ORIGINS is https:// plus each SIWE domain, and http:// too for localhost', () => {
    expect(loadConfig({ ...production, SIWE_DOMAIN: 'app.example.com,localhost:3000' }).appOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:3000',
      'https://localhost:3000',
    ]);
    expect(
      loadConfig({ ...production, APP_ORIGINS: 'https://a.example.com/, https://b.example.com' }).appOrigins,
    ).toEqual(['https://a.example.com', 'https://b.example.com']);
  });

  test(
    'behavior: a preview deployment admits its own hosts as SIWE domains and app origins; a ' +
      'production deployment does not',
    () => {
      const vercel = {
        ...production,
        VERCEL: '1',
        DATABASE_URL: 'postgres://db',
        VERCEL_URL: 'app-git-x-team.vercel.app',
        VERCEL_BRANCH_URL: 'app-git-x.vercel.app',
      };
      const preview = loadConfig({ ...vercel, VERCEL_ENV: 'preview' });
      expect(preview.siweDomains).toEqual(['app.example.com', 'app-git-x-team.vercel.app', 'app-git-x.vercel.app']);
      expect(preview.appOrigins).toContain('https://app-git-x-team.vercel.app');
      const live = loadConfig({ ...vercel, VERCEL_ENV: 'production' });
      expect(live.siweDomains).toEqual(['app.example.com']);
    },
  );

  test('error: on Vercel a missing DATABASE_URL or shared KV stops start-up, whatever SINGLE_INSTANCE says', () => {
    const vercel = { ...production, VERCEL: '1' };
    expect(() => loadConfig(vercel)).toThrow(/DATABASE_URL is required on Vercel/);
    expect(() =>
      loadConfig({ ...vercel, DATABASE_URL: 'postgres://db', REDIS_URL: undefined, SINGLE_INSTANCE: '1' }),
    ).toThrow(/REDIS_URL or KV_REST_API_URL \+ KV_REST_API_TOKEN is required on Vercel/);
  });

  test('default: the development SIWE domain follows PORT', () => {
    expect(
      loadConfig({ NODE_ENV: 'development', PORT: '4123', JWT_SECRET: 'x'.repeat(32), SESSION_SECRET: 'y'.repeat(32) })
        .siweDomains,
    ).toEqual(['localhost:4123']);
  });
});

describe('operating settings (docs/api.md#observability)', () => {
  test('error: a METRICS_TOKEN under 32 characters stops start-up, in development too', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'x'.repeat(31) })).toThrow(/METRICS_TOKEN must be at least 32 characters/);
    expect(loadConfig({ ...production, METRICS_TOKEN: strong }).metricsToken).toBe(strong);
  });

  test('default: tracing is off without OTEL_EXPORTER_OTLP_ENDPOINT; the service is named taskmarket', () => {
    expect(loadConfig(production).otel).toEqual({ endpoint: undefined, headers: {}, serviceName: 'taskmarket' });
    expect(loadConfig({ ...production, OTEL_EXPORTER_OTLP_ENDPOINT: '' }).otel.endpoint).toBeUndefined();
  });

  test('behavior: OTLP endpoint, headers (name=value, URL-encoded) and service name are read', () => {
    const cfg = loadConfig({
      ...production,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otlp.example.com:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc, x-team = ops',
      OTEL_SERVICE_NAME: 'taskmarket-eu',
    });
    expect(cfg.otel).toEqual({
      endpoint: 'https://otlp.example.com:4318',
      headers: { authorization: 'Bearer abc', 'x-team': 'ops' },
      serviceName: 'taskmarket-eu',
    });
  });

  test('error: a malformed endpoint or header list names the setting', () => {
    expect(() => loadConfig({ ...production, OTEL_EXPORTER_OTLP_ENDPOINT: 'otlp.example.com' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
    expect(() => loadConfig({ ...production, OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://otlp.example.com' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
    expect(() => loadConfig({ ...production, OTEL_EXPORTER_OTLP_HEADERS: 'novalue' })).toThrow(
      /OTEL_EXPORTER_OTLP_HEADERS/,
    );
    expect(() => loadConfig({ ...production, OTEL_EXPORTER_OTLP_HEADERS: 'a=%zz' })).toThrow(
      /OTEL_EXPORTER_OTLP_HEADERS/,
    );
  });
});
