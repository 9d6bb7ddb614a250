import { analyticsQuerySchema, analyticsSchema, clientAnalytics, resolveRange } from '@/lib/enterprise';
import { json, route } from '@/lib/http/route';
import { otherMethods } from '@/lib/http/methods';

// The caller's own missions only: the client id is the WHERE clause of every aggregate.
export const GET = route(
  {
    auth: 'CLIENT',
    scope: 'missions:read',
    query: analyticsQuerySchema,
    doc: {
      tag: 'Enterprise',
      summary: "Analytics of the caller's missions over a date range",
      response: analyticsSchema,
    },
  },
  async ({ query, caller, db }) => {
    const range = resolveRange(query, new Date());
    return json(await clientAnalytics(await db(), caller.user.id, range));
  },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
