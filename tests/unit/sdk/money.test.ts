// sdk/src/money.ts: base units shown in whole tokens, grouped, and typed amounts read back — exact for
// any amount and any ERC-20 decimals, the same digits as viem's formatUnits, and strict about input.
import fc from 'fast-check';
import { formatUnits } from 'viem';
import { describe, expect, test } from 'vitest';
import { AmountError, formatAmount, parseAmount } from '../../../sdk/src/money';

const amounts = fc.bigInt({ min: 0n, max: 10n ** 60n });
const decimalsArb = fc.integer({ min: 0, max: 36 });

describe('formatAmount', () => {
  test('default: whole tokens, thousands grouped, trailing zeros dropped', () => {
    expect(formatAmount(1_000_000_001n, 6)).toBe('1,000.000001');
    expect(formatAmount(25_000_000n, 6)).toBe('25');
    expect(formatAmount(1n, 6)).toBe('0.000001');
    expect(formatAmount(0n, 6)).toBe('0');
    expect(formatAmount(1_234_567_890_000_000_000_000n, 18)).toBe('1,234.56789');
    expect(formatAmount(1_000_000n, 0)).toBe('1,000,000');
  });

  test('behavior: a symbol after a space, grouping off on request, a negative keeps its sign', () => {
    expect(formatAmount(12_500_000n, 6, { symbol: 'USDC' })).toBe('12.5 USDC');
    expect(formatAmount(1_000_000_000n, 6, { group: false })).toBe('1000');
    expect(formatAmount(-1_500_000n, 6)).toBe('-1.5');
  });

  test('behavior: ungrouped, the same digits as viem formatUnits for any amount and decimals', () => {
    fc.assert(
      fc.property(amounts, decimalsArb, (value, decimals) => {
        expect(formatAmount(value, decimals, { group: false })).toBe(formatUnits(value, decimals));
      }),
    );
  });

  test('error: decimals that no ERC-20 has', () => {
    for (const bad of [-1, 1.5, 256, Number.NaN]) expect(() => formatAmount(1n, bad)).toThrow(RangeError);
  });
});

describe('parseAmount', () => {
  test('default: plain or grouped whole tokens, with up to the token’s decimals, spaces around ignored', () => {
    expect(parseAmount('25', 6)).toBe(25_000_000n);
    expect(parseAmount(' 12.50 ', 6)).toBe(12_500_000n);
    expect(parseAmount('1,000.000001', 6)).toBe(1_000_000_001n);
    expect(parseAmount('1000', 0)).toBe(1000n);
    expect(parseAmount('0.000000000000000001', 18)).toBe(1n);
  });

  test('behavior: any amount survives format then parse, grouped or not, for any decimals', () => {
    fc.assert(
      fc.property(amounts, decimalsArb, fc.boolean(), (value, decimals, group) => {
        expect(parseAmount(formatAmount(value, decimals, { group }), decimals)).toBe(value);
      }),
    );
  });

  test('behavior: a typed amount reads back as the one canonical text', () => {
    const typed = fc
      .tuple(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 6 }),
      )
      .map(([whole, fraction]) => (fraction ? `${whole}.${fraction}` : `${whole}`));
    fc.assert(
      fc.property(typed, (text) => {
        const value = parseAmount(text, 6);
        expect(parseAmount(formatAmount(value, 6), 6)).toBe(value);
        const canonical = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
        expect(formatAmount(value, 6, { group: false })).toBe(canonical);
      }),
    );
  });

  test('error: too many decimals, negative, empty, misplaced commas and junk are AmountErrors', () => {
    expect(() => parseAmount('0.0000001', 6)).toThrow('At most 6 decimal places.');
    expect(() => parseAmount('1.5', 0)).toThrow('Whole tokens only.');
    expect(() => parseAmount('-5', 6)).toThrow('An amount cannot be negative.');
    for (const junk of [
      '',
      ' ',
      '1e6',
      '0x10',
      '1,00',
      '10,00,000',
      ',100',
      '1.',
      '.5',
      '1.2.3',
      '١٢',
      'NaN',
      '5 USDC',
    ])
      expect(() => parseAmount(junk, 6), junk).toThrow(AmountError);
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          const value = parseAmount(text, 6);
          expect(value).toBeGreaterThanOrEqual(0n);
          expect(text.trim()).toMatch(/^[0-9,]+(\.[0-9]{1,6})?$/);
        } catch (error) {
          expect(error).toBeInstanceOf(AmountError);
        }
      }),
    );
  });
});
