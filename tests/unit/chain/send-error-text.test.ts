// sendErrorText (lib/chain/rpc-errors.ts): what a failed send records in last_error. A node's revert text can carry
// a custom error's raw arguments (NUL bytes), which PostgreSQL refuses in a text column.
import { BaseError } from 'viem';
import { expect, test } from 'vitest';
import { sendErrorText } from '@/lib/chain/rpc-errors';

test('behavior: control characters are dropped; the short message is preferred; one line only', () => {
  const revert = Object.assign(new Error('x'), { shortMessage: 'reverted: custom error 0x78b00e13\u0000\u0000\u0001' });
  expect(sendErrorText(revert)).toBe('reverted: custom error 0x78b00e13');
  expect(sendErrorText(new BaseError('send failed'))).toBe('send failed');
  expect(sendErrorText(new Error('first line\u0000\nthe request, calldata and all'))).toBe('first line');
  expect(sendErrorText(undefined)).toBeUndefined();
});
