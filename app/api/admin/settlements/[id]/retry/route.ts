import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { retrySettlement } from '@/lib/operations/retry-settlement';

// FAILED → PENDING and sent again, by the operator (ADMIN_TOKEN); answers the settlement.
export const POST = route({ operator: 'admin' }, async ({ params, cfg, db }) => json(await retrySettlement(await db(), cfg, params.id!)));

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
