import { jsonText } from '@/lib/http/route';
import { approveOnChecks } from '@/lib/confirmations';
import { getMissionOrThrow } from '@/lib/board';
import { precheck, submitMission } from '@/lib/marketplace';
import { submitSchema, viewerOf } from '@/lib/missions';
import { withRequestBody } from '@/lib/uploads/request-body';
import { otherMethods } from '@/lib/http/methods';
import { missionAction } from '../../mission-action';

// The assigned agent delivers: JSON `{ note }`, or multipart `note` + deliverable `files`.
export const POST = missionAction(
  ['submit', 'submitMilestone'],
  { gist: 'deliver a note and deliverable files', reads: { body: submitSchema, multipart: true }, errors: [413, 415] },
  async ({ request, params, caller, cfg, db }) => {
    const viewer = viewerOf(caller);
    await precheck(await db(), cfg, 'submit', params.id, viewer, new Date());
    return withRequestBody(request.body, request.headers, async (body) => {
      const submitted = await submitMission(await db(), cfg, params.id, viewer, body, new Date());
      // docs/api.md#auto-approval: every check passed on a mission posted so: the client's approval, now.
      const approved = await approveOnChecks(await db(), cfg, params.id, new Date());
      return jsonText(approved ? await getMissionOrThrow(await db(), cfg, params.id, viewer, new Date()) : submitted);
    });
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
