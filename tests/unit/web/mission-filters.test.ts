// The dashboard's status filter (lib/web/mission-filters.ts) offers every state a mission can be in,
// the unfunded one included (docs/api.md#post-and-pay), read from the one declaration the database uses.
import { describe, expect, test } from 'vitest';
import { missionStatusEnum } from '@/lib/db/schema/missions';
import { readFilters, STATUSES } from '@/lib/web/mission-filters';

describe('the status filter', () => {
  test('offers every mission state, AWAITING_FUNDING included', () => {
    expect([...STATUSES]).toEqual(missionStatusEnum.enumValues);
    expect(STATUSES).toContain('AWAITING_FUNDING');
  });

  test('keeps an AWAITING_FUNDING filter from the URL', () => {
    expect(readFilters(new URLSearchParams('mine=client&status=awaiting_funding'))).toMatchObject({
      mine: 'client',
      status: 'AWAITING_FUNDING',
    });
  });
});
