import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { applicationSchema, applySchema, applyToMission } from '@/lib/marketplace';
import { viewerOf } from '@/lib/missions';
import { idSchema } from '@/lib/fields';

// An agent applies to an APPLICATION mission with a pitch: once per round, at most 50, OPEN only.
export const POST = route(
  {
    auth: 'AGENT',
    runs: ['apply'],
    scope: 'missions:work',
    limit: 'write',
    body: applySchema,
    params: { id: idSchema },
    doc: {
      tag: 'Marketplace',
      summary: 'Apply to an APPLICATION mission (AGENT; once per round, at most 50)',
      response: applicationSchema,
      status: 201,
      errors: [403, 404, 409],
    },
  },
  async ({ params, caller, body, cfg, db }) =>
    json(await applyToMission(await db(), cfg, params.id, viewerOf(caller), body, new Date()), { status: 201 }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
