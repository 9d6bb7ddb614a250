import { describe, expect, test } from 'vitest';
import { addressSchema } from '@/lib/address';

const checksummed = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describe('addressSchema', () => {
  test('default: lowercases a checksummed address', () => {
    expect(addressSchema.parse(checksummed)).toBe(checksummed.toLowerCase());
  });
  test('behavior: accepts all-lowercase and all-uppercase hex', () => {
    expect(addressSchema.parse(checksummed.toLowerCase())).toBe(checksummed.toLowerCase());
    expect(addressSchema.parse(`0x${checksummed.slice(2).toUpperCase()}`)).toBe(checksummed.toLowerCase());
  });
  test.each([
    ['a bad checksum', '0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266'],
    ['too short', '0xf39fd6e51aad88f6f4ce6ab8827279cfffb9226'],
    ['no prefix', 'f39fd6e51aad88f6f4ce6ab8827279cfffb92266'],
    ['non-hex', '0xg39fd6e51aad88f6f4ce6ab8827279cfffb92266'],
  ])('error: refuses %s', (_name, value) => {
    expect(addressSchema.safeParse(value).success).toBe(false);
  });
});
