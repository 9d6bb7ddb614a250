import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { POST } from '@/app/api/auth/nonce/route';
import { call, randomIp } from '../support/http';
import { setEnv, useTestEnvironment } from '../support/environment';
import { newWallet } from '../support/wallets';

useTestEnvironment();

describe('POST /api/auth/nonce', () => {
  test('default: a fresh alphanumeric nonce of at least 96 bits per request', async () => {
    const { address } = newWallet();
    const nonces = await Promise.all(Array.from({ length: 20 }, () => call(POST, { body: { address } })));
    for (const response of nonces) {
      expect(response.status).toBe(200);
      expect(response.body.nonce).toMatch(/^[0-9a-f]{32}$/);
      expect(response.headers.get('ratelimit-limit')).toBe('60');
    }
    expect(new Set(nonces.map((r) => r.body.nonce)).size).toBe(20);
  });

  test.each([
    ['a missing address', {}],
    ['a bad checksum', { address: '0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }],
    ['a short address', { address: '0x1234' }],
    ['an unknown field', { address: newWallet().address, role: 'AGENT' }],
    ['a non-object', [1, 2]],
  ])('error: %s is 400 with details', async (_name, body) => {
    const response = await call(POST, { body });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('Validation failed');
    expect(response.body.details.length).toBeGreaterThan(0);
  });

  test('error: malformed JSON and an oversized body', async () => {
    const malformed = await call(POST, { body: '{"address": ' });
    expect(malformed).toMatchObject({ status: 400, body: { error: 'Malformed JSON' } });
    const huge = await call(POST, { body: JSON.stringify({ address: newWallet().address, pad: 'x'.repeat(20_000) }) });
    expect(huge.status).toBe(413);
    expect(Object.keys(huge.body)).toEqual(['error']);
  });

  test('behavior: the 61st request in a minute from one IP is 429 with Retry-After', async () => {
    const ip = randomIp();
    const { address } = newWallet();
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await call(POST, { body: { address }, ip })).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const limited = await call(POST, { body: { address }, ip });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'Too many requests' });
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // Another client is not affected.
    expect((await call(POST, { body: { address } })).status).toBe(200);
  });

  test('behavior: past NONCE_MAX_LIVE live nonces the answer is 503, and room returns as nonces expire', async () => {
    setEnv({ NONCE_MAX_LIVE: '5', NONCE_TTL_SECONDS: '1', KV_PREFIX: `test:${randomUUID()}:` });
    const { address } = newWallet();
    const results = await Promise.all(Array.from({ length: 8 }, () => call(POST, { body: { address } })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    const refused = results.filter((r) => r.status === 503);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.body.error).toMatch(/Nonce storage full/);
    expect(refused[0]!.headers.get('retry-after')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 1100));
    expect((await call(POST, { body: { address } })).status).toBe(200);
    setEnv({ NONCE_MAX_LIVE: undefined, NONCE_TTL_SECONDS: undefined });
  });
});
