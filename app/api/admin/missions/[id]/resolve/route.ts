import { jsonText, route } from '@/lib/http/route';
import { resolveMission } from '@/lib/marketplace';
import { missionSchema, resolveSchema } from '@/lib/missions';
import { otherMethods } from '@/lib/http/methods';
import { idSchema } from '@/lib/fields';

// DISPUTED → COMPLETED or CANCELLED, by the operator (ADMIN_TOKEN): `{ outcome, note? }`.
export const POST = route(
  {
    operator: 'admin',
    body: resolveSchema,
    params: { id: idSchema },
    doc: {
      tag: 'Operations',
      summary: 'Resolve a DISPUTED mission (operator)',
      response: missionSchema,
      errors: [404, 409],
    },
  },
  async ({ params, body, cfg, db }) => jsonText(await resolveMission(await db(), cfg, params.id, body, new Date())),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
