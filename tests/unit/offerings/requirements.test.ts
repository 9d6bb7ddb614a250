// docs/api.md#offerings: an order's requirements against its offering's schema. The agent writes the
// schema and a client the requirements — one attacker with two wallets can be both — so checking them is
// bounded: a pattern that backtracks without end is a 400 within the budget, not a server held for hours.
import { describe, expect, test } from 'vitest';
import { ApiError } from '@/lib/errors';
import { checkRequirements } from '@/lib/offerings/requirements';

const offering = (requirementsSchema: unknown) => ({
  id: crypto.randomUUID(),
  updatedAt: new Date(),
  requirementsSchema,
});
const refusal = (run: () => void) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, details: error.details };
    throw error;
  }
  return undefined;
};

describe('requirements against the schema', () => {
  test('default: matching requirements pass; others are 400 naming the pointer', () => {
    const schema = offering({ type: 'object', required: ['url'], properties: { url: { type: 'string' } } });
    expect(refusal(() => checkRequirements(schema, { url: 'https://example.com' }))).toBeUndefined();
    expect(refusal(() => checkRequirements(schema, {}))).toEqual({
      status: 400,
      details: ['requirements/url: required'],
    });
  });

  test('security: a catastrophically backtracking pattern is refused within the budget', () => {
    const schema = offering({ type: 'object', properties: { name: { type: 'string', pattern: '^(a+)+$' } } });
    const started = Date.now();
    const answer = refusal(() => checkRequirements(schema, { name: `${'a'.repeat(40)}!` }));
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(answer).toEqual({ status: 400, details: [expect.stringMatching(/took longer than 1 s/)] });
  });
});
