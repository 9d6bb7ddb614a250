import { jsonText, route } from '@/lib/http/route';
import { listMissions } from '@/lib/board';
import { createdMissionSchema } from '@/lib/funding';
import { createMission } from '@/lib/marketplace';
import { createMissionSchema, listQuerySchema, missionListSchema, viewerOf } from '@/lib/missions';
import { withRequestBody } from '@/lib/uploads/request-body';
import { otherMethods } from '@/lib/http/methods';

export const GET = route(
  {
    auth: 'optional',
    scope: 'missions:read',
    query: listQuerySchema,
    doc: {
      tag: 'Missions',
      summary: 'List missions: public OPEN board, or `mine=client|agent`',
      response: missionListSchema,
    },
  },
  async ({ query, caller, cfg, db }) =>
    jsonText(await listMissions(await db(), cfg, query, viewerOf(caller), new Date())),
);

// JSON, or multipart with attachments; an Idempotency-Key replays the first answer (docs/api.md#idempotency).
export const POST = route(
  {
    auth: 'CLIENT',
    scope: 'missions:post',
    limit: 'createMission',
    doc: {
      tag: 'Missions',
      summary: 'Post a mission (JSON, or multipart with attachments)',
      body: createMissionSchema,
      multipart: true,
      idempotent: true,
      response: createdMissionSchema,
      status: 201,
      errors: [409, 413, 415, 422],
    },
  },
  async ({ request, caller, cfg, db }) =>
    withRequestBody(request.body, request.headers, async (body) => {
      const idempotencyKey = request.headers.get('idempotency-key');
      // docs/api.md#standing-allowance: a delegated token's grant may fund the post at once.
      const delegation = caller.grant && { grantId: caller.grant.id };
      return jsonText(await createMission(await db(), cfg, caller.user, body, idempotencyKey, new Date(), delegation), {
        status: 201,
      });
    }),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
