import { createSiweMessage } from 'viem/siwe';
import { describe, expect, test } from 'vitest';
import { ApiError } from '@/lib/errors';
import { MAX_MESSAGE_LENGTH, parseSiweMessage } from '@/lib/auth/siwe-message';

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const message = (fields: Partial<Parameters<typeof createSiweMessage>[0]> = {}) =>
  createSiweMessage({
    domain: 'app.example.com',
    address,
    uri: 'https://app.example.com',
    version: '1',
    chainId: 8453,
    nonce: 'a1b2c3d4e5f6a7b8',
    issuedAt: new Date('2026-11-22T10:00:00Z'),
    ...fields,
  });

const refusal = (text: string) => {
  try {
    parseSiweMessage(text);
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('parsed');
};

describe('parseSiweMessage', () => {
  test('default: reads every field', () => {
    const fields = parseSiweMessage(
      message({
        expirationTime: new Date('2026-11-22T11:00:00Z'),
        notBefore: new Date('2026-11-22T09:00:00Z'),
        statement: 'Hi',
      }),
    );
    expect(fields).toMatchObject({
      domain: 'app.example.com',
      address,
      chainId: 8453,
      nonce: 'a1b2c3d4e5f6a7b8',
      version: '1',
    });
    expect(fields.issuedAt.toISOString()).toBe('2026-11-22T10:00:00.000Z');
    expect(fields.expirationTime?.toISOString()).toBe('2026-11-22T11:00:00.000Z');
    expect(fields.notBefore?.toISOString()).toBe('2026-11-22T09:00:00.000Z');
  });

  test.each([
    ['a lowercase (non-checksum) address', message().replace(address, address.toLowerCase())],
    ['a missing nonce line', message().replace(/Nonce: .*\n/, '')],
    ['a short nonce', message().replace('a1b2c3d4e5f6a7b8', 'abc')],
    ['a non-alphanumeric nonce', message().replace('a1b2c3d4e5f6a7b8', 'a1b2c3d4-e5f6a7b8')],
    ['version 2', message().replace('Version: 1', 'Version: 2')],
    ['a non-numeric chain id', message().replace('Chain ID: 8453', 'Chain ID: base')],
    ['a garbage date', message().replace(/Issued At: .*/, 'Issued At: yesterday')],
    ['fields out of order', message().replace(/(Version: 1)\n(Chain ID: 8453)/, '$2\n$1')],
    ['an extra line', `${message()}\nHello: there`],
    ['an empty text', ''],
    ['a bare preamble', 'app.example.com wants you to sign in with your Ethereum account:'],
  ])('error: refuses %s with 400', (_name, text) => {
    const error = refusal(text);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.message).toBe('Malformed SIWE message');
  });

  test('error: refuses a message over the size bound before parsing', () => {
    const error = refusal(message({ statement: 'x'.repeat(MAX_MESSAGE_LENGTH) }));
    expect(error.status).toBe(400);
    expect(error.details).toEqual(['message: too long']);
  });
});
